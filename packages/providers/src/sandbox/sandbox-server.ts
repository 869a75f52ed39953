import { randomUUID } from 'node:crypto';
import { normalisedEmail, seededRandom } from '@touchbase/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { bearerToken, secretMatches } from '../webhooks/endpoint-token.js';
import {
  DEFAULT_SANDBOX_WEBHOOK_RETRY,
  type SandboxDelivery,
  type SandboxEventPayload,
  type SandboxLinkedInEventPayload,
  type SandboxLoggedEvent,
  type SandboxOptions,
  type SandboxOutcome,
  type SandboxProspectStatus,
} from './sandbox.types.js';
import { sandboxEventPayload } from './sandbox-event-payload.js';
import { DEFAULT_SANDBOX_LINKEDIN, SandboxLinkedIn } from './sandbox-linkedin.js';
import { SandboxWebhookPusher } from './sandbox-webhook-pusher.js';

/** `times`: how many deliveries get the outcome before the address behaves normally again. */
type Scripted = { outcome: SandboxOutcome; afterStep: number; text?: string; times?: number };

/**
 * The sandbox provider: a real HTTP server on loopback that behaves like a
 * sending provider. It honours idempotency keys (same key, same answer, no
 * second delivery), keeps a delivery log, and answers touches with replies, hard
 * and soft bounces and out-of-office mails, scripted per address or by seeded
 * odds, by calling ingest's webhook signed with Standard Webhooks. Like a real
 * provider it remembers who replied or bounced, and says so when asked before a
 * send (`GET /v1/prospects/{email}/status`), whether or not its webhook got through.
 * Every answer also goes into an ordered event log that ingest's recovery reads
 * by sequence number (`GET /events?after=SEQ&limit=N`), so what a lost webhook
 * carried can be fetched later.
 */
export class SandboxServer {
  /** Most addresses one `POST /v1/prospects/status` may ask about. */
  static readonly MAX_STATUS_BATCH = 500;
  readonly app: FastifyInstance;
  private readonly byKey = new Map<string, SandboxDelivery>();
  private readonly log: SandboxDelivery[] = [];
  private readonly scripts = new Map<string, Scripted>();
  /** Addresses whose conversation ends: a reply or a hard bounce is on its way. */
  private readonly answered = new Set<string>();
  /** What the sandbox can tell of an address once its answer happened (the webhook may still be lost). */
  private readonly known = new Map<string, 'replied' | 'bounced'>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inflight = new Set<Promise<void>>();
  /** Every answer, in order; `seq` is `seqBase` + its index + 1. */
  private readonly eventLog: SandboxLoggedEvent[] = [];
  /**
   * The log lives in memory, so a restarted sandbox starts a new one. Its numbers
   * start at the start time in µs: above any number a run before it handed out
   * (fewer than a thousand events a millisecond), so a cursor stored before the
   * restart still reads every new event.
   */
  private readonly seqBase = Date.now() * 1000;
  private readonly pusher: SandboxWebhookPusher;
  /** Its LinkedIn (the generic HTTP LinkedIn contract under `/v1/linkedin`), scripted with `linkedin.script`. */
  readonly linkedin: SandboxLinkedIn;
  private random: () => number;
  private webhookUrl: string | undefined;
  private requests = 0;
  private failNext = 0;
  url = '';

  constructor(private readonly opts: SandboxOptions) {
    this.webhookUrl = opts.webhookUrl;
    this.pusher = new SandboxWebhookPusher(
      opts.webhookSecret,
      { ...DEFAULT_SANDBOX_WEBHOOK_RETRY, ...opts.webhookRetry },
      () => this.webhookUrl,
    );
    this.random = seededRandom(opts.seed ?? 42);
    this.app = Fastify({ logger: false, bodyLimit: 1_000_000 });
    this.linkedin = new SandboxLinkedIn(
      { ...DEFAULT_SANDBOX_LINKEDIN, ...opts.linkedin },
      {
        random: () => this.random(),
        timeScale: opts.timeScale ?? 1,
        later: (ms, fn) => this.later(ms, fn),
        emit: (payload) => this.emit(payload),
      },
    );
    this.routes();
    this.linkedin.routes(this.app);
  }

  /** Listens on loopback; port 0 picks a free one. */
  async start(): Promise<string> {
    const address = await this.app.listen({ host: this.opts.host ?? '127.0.0.1', port: this.opts.port ?? 0 });
    this.url = address;
    return address;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.app.close();
    await this.pusher.close();
  }

  setWebhookUrl(url: string): void {
    this.webhookUrl = url;
  }

  /**
   * Answers touches to `email` from step `afterStep` on with `outcome`; with
   * `times`, only that many deliveries (a soft bounce twice, then delivered).
   */
  script(email: string, outcome: SandboxOutcome, afterStep = 1, text?: string, times?: number): void {
    this.scripts.set(normalisedEmail(email), {
      outcome,
      afterStep,
      ...(text ? { text } : {}),
      ...(times !== undefined ? { times } : {}),
    });
  }

  /** What the sandbox knows of an address: it replied, it hard-bounced, or nothing against it. */
  prospectStatus(email: string): SandboxProspectStatus {
    return this.known.get(normalisedEmail(email)) ?? 'ok';
  }

  /** Makes the next `n` send requests fail with 503, to exercise retries. */
  failRequests(n: number): void {
    this.failNext = n;
  }

  deliveries(): readonly SandboxDelivery[] {
    return this.log;
  }

  /** The event log: every answer the sandbox gave, in order, with its webhook's fate. */
  events(): readonly SandboxLoggedEvent[] {
    return this.eventLog;
  }

  stats(): {
    requests: number;
    deliveries: number;
    pendingWebhooks: number;
    events: number;
    webhooksDelivered: number;
    webhooksGivenUp: number;
  } {
    return {
      requests: this.requests,
      deliveries: this.log.length,
      pendingWebhooks: this.timers.size + this.inflight.size,
      events: this.eventLog.length,
      webhooksDelivered: this.eventLog.filter((e) => e.push === 'delivered').length,
      webhooksGivenUp: this.eventLog.filter((e) => e.push === 'given_up').length,
    };
  }

  /** Resolves once every scheduled answer has been delivered (or given up). */
  async settled(): Promise<void> {
    while (this.timers.size + this.inflight.size > 0) {
      await Promise.all([...this.inflight, new Promise((r) => setTimeout(r, 10))]);
    }
  }

  private routes(): void {
    this.app.post<{ Body: Record<string, unknown> }>('/v1/messages', async (req, reply) => {
      this.requests++;
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string' || key.length === 0)
        return reply.code(400).send({ error: 'Idempotency-Key header required' });
      if (this.failNext > 0) {
        this.failNext--;
        return reply.code(503).send({ error: 'sandbox asked to fail' });
      }
      const existing = this.byKey.get(key);
      if (existing)
        return { id: existing.messageId, conversation_id: existing.conversationId, duplicate: true };
      const b = req.body ?? {};
      const meta = (b.metadata ?? {}) as { enrollmentId?: string; step?: number };
      const messageId = `<${randomUUID()}@sandbox.touchbase.local>`;
      const delivery: SandboxDelivery = {
        seq: this.log.length + 1,
        idempotencyKey: key,
        messageId,
        conversationId: typeof b.conversation_id === 'string' ? b.conversation_id : `conv_${randomUUID()}`,
        to: String(b.to ?? ''),
        from: String(b.from ?? ''),
        subject: String(b.subject ?? ''),
        body: String(b.body ?? ''),
        inReplyTo: typeof b.in_reply_to === 'string' ? b.in_reply_to : null,
        unsubscribeUrl: typeof b.unsubscribe_url === 'string' ? b.unsubscribe_url : null,
        enrollmentId: String(meta.enrollmentId ?? ''),
        step: Number(meta.step ?? 0),
        at: new Date().toISOString(),
      };
      this.byKey.set(key, delivery);
      this.log.push(delivery);
      this.maybeAnswer(delivery);
      return { id: messageId, conversation_id: delivery.conversationId, duplicate: false };
    });

    this.app.get<{ Params: { key: string } }>('/v1/messages/:key', async (req, reply) => {
      const d = this.byKey.get(req.params.key);
      if (!d) return reply.code(404).send({ error: 'not found' });
      return { id: d.messageId, conversation_id: d.conversationId };
    });

    this.app.get<{ Params: { email: string } }>('/v1/prospects/:email/status', async (req) => ({
      status: this.prospectStatus(req.params.email),
    }));

    // Many addresses in one look (the adapter gathers the sender's concurrent pre-send
    // re-checks into one request): the statuses in the order asked.
    this.app.post<{ Body: unknown }>('/v1/prospects/status', async (req, reply) => {
      const emails = (req.body as { emails?: unknown } | null)?.emails;
      if (
        !Array.isArray(emails) ||
        emails.length > SandboxServer.MAX_STATUS_BATCH ||
        !emails.every((e) => typeof e === 'string')
      ) {
        return reply.code(400).send({
          error: `emails: an array of at most ${SandboxServer.MAX_STATUS_BATCH} addresses is required`,
        });
      }
      return { statuses: (emails as string[]).map((e) => this.prospectStatus(e)) };
    });

    this.app.get('/v1/deliveries', async () => ({ deliveries: this.log, stats: this.stats() }));

    // The pull stream, in the generic HTTP provider's shape (see HttpEventStream). It
    // alone is guarded: it hands out what the webhooks carry, to whoever holds the
    // webhook secret (the sandbox has no API key of its own).
    this.app.get<{ Querystring: { after?: string; limit?: string } }>('/events', async (req, reply) => {
      if (!this.bearerMatches(req.headers.authorization))
        return reply.code(401).send({ error: 'Authorization: Bearer <webhook secret> required' });
      const after = Number(req.query.after ?? 0);
      const limit = Number(req.query.limit ?? 100);
      if (!Number.isSafeInteger(after) || after < 0)
        return reply.code(400).send({ error: 'after must be a sequence number (0 for the start)' });
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000)
        return reply.code(400).send({ error: 'limit must be between 1 and 1000' });
      // A cursor from before this log (another run, or 0) reads it from the start.
      const from = Math.max(0, after - this.seqBase);
      const page = this.eventLog.slice(from, from + limit);
      return {
        events: page.map((e) => ({ seq: e.seq, id: e.id, event: e.payload })),
        has_more: from + page.length < this.eventLog.length,
      };
    });

    this.app.post<{
      Body: { email: string; outcome: SandboxOutcome; afterStep?: number; text?: string; times?: number };
    }>('/v1/script', async (req) => {
      const b = req.body;
      this.script(b.email, b.outcome, b.afterStep ?? 1, b.text, b.times);
      return { ok: true };
    });
  }

  private maybeAnswer(d: SandboxDelivery): void {
    const email = normalisedEmail(d.to);
    if (this.answered.has(email)) return;
    const outcome = this.decide(email, d.step);
    if (outcome === 'none') return;
    // Out-of-office answers and soft bounces repeat; replies and hard bounces end the conversation.
    if (outcome === 'reply' || outcome === 'bounce') this.answered.add(email);
    const scale = this.opts.timeScale ?? 1;
    const scripted = this.scripts.has(email);
    const delay = scripted ? 0 : Math.round(((this.opts.eventDelayMs ?? 0) * (0.5 + this.random())) / scale);
    this.later(delay, () => {
      // From the moment of the answer the provider knows, whether or not ingest hears of it.
      if (outcome === 'reply') this.known.set(email, 'replied');
      if (outcome === 'bounce') this.known.set(email, 'bounced');
      this.emit(sandboxEventPayload(d, outcome, this.scripts.get(email)?.text));
    });
  }

  /** Runs `fn` after `ms` on a timer the sandbox clears when it closes. */
  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  /** Appends an answer to the event log and pushes its signed webhook to ingest. */
  private emit(payload: SandboxEventPayload | SandboxLinkedInEventPayload): void {
    const logged: SandboxLoggedEvent = {
      seq: this.seqBase + this.eventLog.length + 1,
      id: payload.id,
      payload,
      attempts: 0,
      push: 'pending',
      deliveredAt: null,
      lastError: null,
    };
    this.eventLog.push(logged);
    const p = this.pusher.push(logged).finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  private decide(email: string, step: number): SandboxOutcome {
    const s = this.scripts.get(email);
    if (s) {
      if (step < s.afterStep || s.times === 0) return 'none';
      if (s.times !== undefined) s.times--;
      return s.outcome;
    }
    const odds = this.opts.odds;
    if (!odds) return 'none';
    const r = this.random();
    if (r < odds.bounce && step === 1) return 'bounce';
    if (r < odds.bounce + odds.reply) return 'reply';
    if (r < odds.bounce + odds.reply + odds.outOfOffice) return 'out_of_office';
    return 'none';
  }

  private bearerMatches(header: string | undefined): boolean {
    const token = bearerToken(header);
    return token !== undefined && secretMatches(token, this.opts.webhookSecret);
  }
}
