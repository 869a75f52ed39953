import { randomUUID } from 'node:crypto';
import { normaliseLinkedInProfileUrl } from '@touchbase/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LinkedInFailureReason } from '../linkedin/linkedin-sender.port.js';
import type { SandboxLinkedInEventPayload, SandboxLinkedInOptions } from './sandbox.types.js';

export type { SandboxLinkedInOptions };

export const DEFAULT_SANDBOX_LINKEDIN: SandboxLinkedInOptions = {
  acceptOdds: 0.3,
  acceptDelayMs: 6 * 3_600_000,
  replyOdds: 0.1,
  replyDelayMs: 3_600_000,
  replyText: 'Thanks for reaching out, not interested right now.',
};

/** One member's scripted behaviour: accept or not, reply (with a text) or not, or refuse every action. */
export type SandboxLinkedInScript = {
  accept?: boolean;
  reply?: boolean;
  text?: string;
  fail?: LinkedInFailureReason;
};

/** An action the sandbox took for us, as its log keeps it. */
export type SandboxLinkedInAction = {
  id: string;
  kind: 'invitation' | 'message' | 'profile_visit';
  idempotencyKey: string;
  accountId: string;
  profileUrl: string;
  text: string | null;
  at: string;
};

type Body = { account_id?: unknown; profile_url?: unknown; note?: unknown; text?: unknown };

/**
 * The sandbox's LinkedIn, speaking the generic HTTP LinkedIn contract (see
 * HttpLinkedInSender): invitations accepted by odds after a delay, messages to
 * connections answered by odds, profile visits logged, each action once per
 * Idempotency-Key; acceptances and answers come back to ingest as signed webhooks
 * (through `emit`, the sandbox's one event log and pusher).
 */
export class SandboxLinkedIn {
  private readonly byKey = new Map<string, SandboxLinkedInAction>();
  private readonly log: SandboxLinkedInAction[] = [];
  private readonly scripts = new Map<string, SandboxLinkedInScript>();
  /** `{accountId} {profileUrl}`: invitations pending, and relations made. */
  private readonly invited = new Set<string>();
  private readonly connected = new Set<string>();
  private readonly answered = new Set<string>();

  constructor(
    private readonly opts: SandboxLinkedInOptions,
    private readonly deps: {
      random: () => number;
      timeScale: number;
      /** Schedules `fn` after `ms` (the sandbox's timers, cleared on close). */
      later: (ms: number, fn: () => void) => void;
      emit: (payload: SandboxLinkedInEventPayload) => void;
    },
  ) {}

  routes(app: FastifyInstance): void {
    app.post<{ Body: Body }>('/v1/linkedin/invitations', (req, reply) => this.act('invitation', req, reply));
    app.post<{ Body: Body }>('/v1/linkedin/messages', (req, reply) => this.act('message', req, reply));
    app.post<{ Body: Body }>('/v1/linkedin/profile-visits', (req, reply) =>
      this.act('profile_visit', req, reply),
    );
    app.get('/v1/linkedin/actions', async () => ({ actions: this.log }));
    app.post<{ Body: SandboxLinkedInScript & { profile_url?: string } }>(
      '/v1/linkedin/script',
      async (req, reply) => {
        const url = normaliseLinkedInProfileUrl(String(req.body?.profile_url ?? ''));
        if (!url) return reply.code(400).send({ error: 'profile_url: a LinkedIn profile URL is required' });
        this.script(url, req.body);
        return { ok: true };
      },
    );
  }

  /** Scripts one member: it accepts or not, answers or not, or every action on it fails with `fail`. */
  script(profileUrl: string, script: SandboxLinkedInScript): void {
    const url = normaliseLinkedInProfileUrl(profileUrl);
    if (!url) throw new Error('not a LinkedIn profile URL');
    this.scripts.set(url, script);
  }

  actions(): readonly SandboxLinkedInAction[] {
    return this.log;
  }

  private async act(
    kind: SandboxLinkedInAction['kind'],
    req: FastifyRequest<{ Body: Body }>,
    reply: FastifyReply,
  ): Promise<unknown> {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || key.length === 0)
      return reply.code(400).send({ reason: 'invalid_request', detail: 'Idempotency-Key header required' });
    const seen = this.byKey.get(key);
    if (seen) return { id: seen.id, duplicate: true };
    const b = req.body ?? {};
    const accountId = typeof b.account_id === 'string' ? b.account_id : '';
    const profileUrl = normaliseLinkedInProfileUrl(typeof b.profile_url === 'string' ? b.profile_url : '');
    const text = kind === 'invitation' ? b.note : b.text;
    if (!accountId)
      return reply.code(400).send({ reason: 'invalid_request', detail: 'account_id is required' });
    if (!profileUrl) return reply.code(404).send({ reason: 'profile_not_found', detail: 'no such profile' });
    if (kind === 'message' && (typeof text !== 'string' || text.length === 0))
      return reply.code(400).send({ reason: 'invalid_request', detail: 'text is required' });
    if (kind === 'invitation' && typeof text === 'string' && text.length > 300)
      return reply.code(400).send({ reason: 'invalid_request', detail: 'note: at most 300 characters' });
    const script = this.scripts.get(profileUrl);
    if (script?.fail) return reply.code(422).send({ reason: script.fail, detail: 'scripted failure' });
    const pair = `${accountId} ${profileUrl}`;
    if (kind === 'invitation' && this.connected.has(pair))
      return reply.code(422).send({ reason: 'already_connected', detail: 'a connection already' });
    if (kind === 'invitation' && this.invited.has(pair))
      return reply.code(422).send({ reason: 'already_invited', detail: 'an invitation is pending' });
    if (kind === 'message' && !this.connected.has(pair))
      return reply.code(422).send({ reason: 'not_connected', detail: 'not a connection' });
    const action: SandboxLinkedInAction = {
      id: `li_${kind}_${randomUUID()}`,
      kind,
      idempotencyKey: key,
      accountId,
      profileUrl,
      text: typeof text === 'string' ? text : null,
      at: new Date().toISOString(),
    };
    this.byKey.set(key, action);
    this.log.push(action);
    if (kind === 'invitation') {
      this.invited.add(pair);
      this.maybeAccept(action, pair, script);
    }
    if (kind === 'message') this.maybeReply(action, pair, script);
    return reply.code(201).send({ id: action.id, duplicate: false });
  }

  private maybeAccept(action: SandboxLinkedInAction, pair: string, script?: SandboxLinkedInScript): void {
    const accept = script?.accept ?? this.deps.random() < this.opts.acceptOdds;
    if (!accept) return;
    this.deps.later(this.delay(this.opts.acceptDelayMs, script), () => {
      this.invited.delete(pair);
      this.connected.add(pair);
      this.deps.emit(this.payload(action, 'linkedin.connection_accepted'));
    });
  }

  private maybeReply(action: SandboxLinkedInAction, pair: string, script?: SandboxLinkedInScript): void {
    if (this.answered.has(pair)) return;
    const answer = script?.reply ?? this.deps.random() < this.opts.replyOdds;
    if (!answer) return;
    this.answered.add(pair);
    this.deps.later(this.delay(this.opts.replyDelayMs, script), () => {
      this.deps.emit({
        ...this.payload(action, 'reply'),
        text: script?.text ?? this.opts.replyText ?? DEFAULT_SANDBOX_LINKEDIN.replyText,
      });
    });
  }

  /** A scripted member answers at once; the others after the delay, randomised and compressed by TIME_SCALE. */
  private delay(realMs: number, script?: SandboxLinkedInScript): number {
    if (script) return 0;
    return Math.round((realMs * (0.5 + this.deps.random())) / Math.max(1, this.deps.timeScale));
  }

  private payload(
    action: SandboxLinkedInAction,
    type: SandboxLinkedInEventPayload['type'],
  ): SandboxLinkedInEventPayload {
    return {
      id: `evt_${randomUUID()}`,
      type,
      occurred_at: new Date().toISOString(),
      channel: 'linkedin',
      linkedin_url: action.profileUrl,
      message_id: action.id,
      account_id: action.accountId,
      in_reply: true,
    };
  }
}
