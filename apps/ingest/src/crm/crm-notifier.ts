import { CRM_REPLY_KIND_PREFIX } from '@touchbase/core';
import type { CrmOutboxRepository } from '@touchbase/db';
import type { CrmAdapter } from '@touchbase/providers';
import type { Logger } from '@touchbase/telemetry';

export type CrmNotifierDeps = {
  outbox: CrmOutboxRepository;
  crm: CrmAdapter;
  logger: Logger;
  /** Base retry interval; doubles per attempt, capped at an hour. */
  retryIntervalMs: number;
  /** Attempts after which a notification is given up (and stays visible as failed). */
  maxAttempts?: number;
  batchSize?: number;
};

/**
 * Delivers the CRM outbox: after each commit that queued an update (`kick`) and
 * on a timer, so a notification that failed, or whose process died, is retried.
 * Rows are leased while in flight, so replicas do not deliver one twice.
 */
export class CrmNotifier {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again = false;

  constructor(private readonly deps: CrmNotifierDeps) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), Math.max(100, this.deps.retryIntervalMs));
    this.timer.unref();
    this.kick();
  }

  /** Runs a delivery round soon; rounds never overlap. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => {
        this.deps.logger.warn({ err: (err as Error).message }, 'CRM outbox round failed');
        return 0;
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Delivers every due notification. @returns how many were settled. */
  async drain(): Promise<number> {
    const batch = this.deps.batchSize ?? 50;
    const lease = Math.max(30_000, this.deps.retryIntervalMs);
    let settled = 0;
    for (;;) {
      const due = await this.deps.outbox.take(batch, lease);
      if (due.length === 0) return settled;
      for (const n of due) {
        // `reply:<class>`: a positive reply marks the contact; anything else is a hard bounce.
        const r = n.kind.startsWith(CRM_REPLY_KIND_PREFIX)
          ? await this.deps.crm.markReplied(n.email, n.kind.slice(CRM_REPLY_KIND_PREFIX.length))
          : await this.deps.crm.markEmailInvalid(n.email, n.kind);
        const log = {
          notificationId: n.id,
          eventId: n.eventId,
          crm: this.deps.crm.name,
          attempts: n.attempts,
        };
        if (r.kind === 'done' || r.kind === 'not_found') {
          await this.deps.outbox.done(
            n.id,
            r.kind === 'done' ? 'done' : 'failed',
            r.kind === 'not_found' ? 'contact not found' : undefined,
          );
          this.deps.logger.info({ ...log, kind: n.kind, result: r.kind }, 'CRM updated');
          settled++;
        } else if (r.kind === 'permanent' || n.attempts >= (this.deps.maxAttempts ?? 10)) {
          await this.deps.outbox.done(n.id, 'failed', r.error);
          this.deps.logger.error({ ...log, err: r.error }, 'CRM update given up');
          settled++;
        } else {
          const backoff = Math.min(3_600_000, this.deps.retryIntervalMs * 2 ** (n.attempts - 1));
          await this.deps.outbox.retryLater(n.id, Math.max(backoff, r.retryAfterMs ?? 0), r.error);
          this.deps.logger.warn({ ...log, err: r.error }, 'CRM update failed; will retry');
        }
      }
    }
  }

  /** Stops the timer and waits for the round in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
