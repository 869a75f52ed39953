import { randomUUID } from 'node:crypto';
import type { CanonicalEvent, ReplyBatchCondition } from '@touchbase/core';
import type {
  ApplyOutcome,
  EventStore,
  EventTarget,
  EventTransaction,
  ResumedEnrollment,
  StopEffect,
} from '@touchbase/use-cases';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { AuditRepository } from './audit.repository.js';
import { CompanyStopRepository } from './company-stop.repository.js';
import { CrmOutboxRepository } from './crm-outbox.repository.js';
import { EnrollmentRepository } from './enrollment.repository.js';
import { EnrollmentEffectRepository } from './enrollment-effect.repository.js';
import { ErasureRepository } from './erasure.repository.js';
import { EventBatchRepository } from './event-batch.repository.js';
import { type EventListFilter, EventLogRepository, type EventRow } from './event-log.repository.js';
import { EventTargetRepository } from './event-target.repository.js';
import { GraphEdgeRepository } from './graph-edge.repository.js';
import { ProspectRepository } from './prospect.repository.js';
import { ProviderCursorRepository } from './provider-cursor.repository.js';
import { ReactivationRepository } from './reactivation.repository.js';
import { SoftBounceRepository } from './soft-bounce.repository.js';
import { SuppressionRepository } from './suppression.repository.js';
import { TriageRepository } from './triage.repository.js';

/**
 * Where events are recorded and applied: the @touchbase/use-cases `EventStore` over
 * PostgreSQL. It decides nothing: `applyEvent` (or {@link recordAndApply}) decides
 * in core and calls the primitives each table's repository offers, here bound to one
 * transaction, or the batched statements of {@link EventBatchRepository}.
 */
export class EventRepository implements EventStore {
  private readonly log: EventLogRepository;
  private readonly cursors: ProviderCursorRepository;
  private readonly targets = new EventTargetRepository();
  private readonly batches: EventBatchRepository;
  private readonly enrollments: EnrollmentRepository;
  private readonly effects: EnrollmentEffectRepository;
  private readonly prospects: ProspectRepository;
  private readonly suppressions: SuppressionRepository;
  private readonly softBounces = new SoftBounceRepository();
  private readonly edges = new GraphEdgeRepository();
  private readonly erasure: ErasureRepository;
  private readonly outbox: CrmOutboxRepository;
  private readonly auditLog: AuditRepository;
  private readonly triage = new TriageRepository();
  private readonly companyStops = new CompanyStopRepository();
  private readonly reactivations: ReactivationRepository;

  constructor(
    private readonly pool: pg.Pool,
    opts: { stopBatchHoldMs?: number } = {},
  ) {
    this.log = new EventLogRepository(pool);
    this.cursors = new ProviderCursorRepository(pool);
    this.batches = new EventBatchRepository(pool, opts.stopBatchHoldMs);
    this.enrollments = new EnrollmentRepository(pool);
    this.effects = new EnrollmentEffectRepository(pool);
    this.prospects = new ProspectRepository(pool);
    this.suppressions = new SuppressionRepository(pool);
    this.erasure = new ErasureRepository(pool);
    this.outbox = new CrmOutboxRepository(pool);
    this.auditLog = new AuditRepository(pool);
    this.reactivations = new ReactivationRepository(pool);
  }

  transaction<T>(fn: (tx: EventTransaction) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, (client) => fn(this.bound(client)));
  }

  applyStopNamingEnrollment(item: {
    id: string;
    event: CanonicalEvent;
    effect: StopEffect;
    reply?: ReplyBatchCondition;
  }) {
    return this.batches.applyStop(item);
  }

  sequencePolicyTexts(): Promise<readonly string[]> {
    return this.batches.policyTexts();
  }

  recordInformationalNamingEnrollment(item: {
    id: string;
    event: CanonicalEvent;
    outcome: ApplyOutcome;
    edge?: boolean;
  }) {
    return this.batches.recordInformational(item);
  }

  resolveTarget(event: CanonicalEvent): Promise<EventTarget | null> {
    return this.targets.resolve(this.pool, event);
  }

  recordApplied(id: string, event: CanonicalEvent, outcome: ApplyOutcome, target: EventTarget | null) {
    return this.log.insertApplied(id, event, outcome, target);
  }

  /** Whether touches are still being handed to the provider (claimed, not yet recorded). */
  touchesInFlight(keys: { enrollmentId: string; step: number }[]): Promise<number> {
    return this.effects.touchesInFlight(keys);
  }

  /** Ends the out-of-office pauses whose time has come (the scheduler's reconciler gives them their jobs). */
  resumeExpiredPauses(now: Date, limit?: number): Promise<ResumedEnrollment[]> {
    return this.effects.resumeExpiredPauses(now, limit);
  }

  /** The person's latest applied reply (its class, whether it took a `replied` edge), or null (the sender's re-check reads it). */
  lastReply(prospectId: string): Promise<{ replyClass: string; tookRepliedEdge: boolean } | null> {
    return this.log.lastReply(prospectId);
  }

  /** The last position read from a provider's event stream, or null before the first pull. */
  cursor(provider: string): Promise<string | null> {
    return this.cursors.cursor(provider);
  }

  /** Moves a provider's cursor forward (never back). */
  advanceCursor(provider: string, cursor: string): Promise<void> {
    return this.cursors.advance(provider, cursor);
  }

  list(filter: EventListFilter, limit: number, afterSeq?: number): Promise<EventRow[]> {
    return this.log.list(filter, limit, afterSeq);
  }

  /** Recorded events by (source, external id) and outcome, for tests and recovery reports. */
  countBySource(source: string) {
    return this.log.countBySource(source);
  }

  /** The primitives of every table an event changes, bound to one transaction. */
  private bound(client: pg.PoolClient): EventTransaction {
    return {
      insertEvent: (id, event) => this.log.insert(client, id, event),
      insertEventAndResolve: async (id, event, opts) => {
        if (!event.enrollmentId) {
          if (!(await this.log.insert(client, id, event))) return { inserted: false };
          return { inserted: true, target: await this.targets.resolve(client, event) };
        }
        const r = await this.log.insertReadingEnrollment(
          client,
          id,
          { ...event, enrollmentId: event.enrollmentId },
          opts?.withLive ?? false,
        );
        if (!r.inserted) return { inserted: false };
        const target = await this.targets.resolve(client, event, r.enrollment);
        // The live enrollments read are those of the named enrollment's person: only when that is the target.
        return r.live && target && target.prospectId === r.enrollment?.prospect_id
          ? { inserted: true, target, live: r.live }
          : { inserted: true, target };
      },
      finishEvent: (id, outcome, prospectId, enrollmentId, inFlightOf) =>
        this.log.finish(client, id, outcome, prospectId, enrollmentId, inFlightOf),
      resolveTarget: (event) => this.targets.resolve(client, event),
      softBouncesInARow: (prospectId) => this.softBounces.inARow(client, prospectId),
      stopProspect: (prospectId, status, reason, at, keep) =>
        this.enrollments.stopForProspect(client, prospectId, status, reason, at, keep),
      pauseProspect: (prospectId, until, keep) => this.effects.pauseProspect(client, prospectId, until, keep),
      liveEnrollments: (prospectId) => this.effects.liveEnrollments(client, prospectId),
      pastEnrollments: (prospectId) => this.reactivations.pastEnrollments(client, prospectId),
      scheduleReactivation: (r) => this.reactivations.schedule(client, r),
      skipReactivations: (prospectId, outcome) => this.reactivations.skipPending(client, prospectId, outcome),
      setContactAfter: (prospectId, until) => this.effects.setContactAfter(client, prospectId, until),
      raiseAlert: async (alert) => {
        const id = randomUUID();
        await client.query(
          'INSERT INTO alert (id, kind, domain_id, message, data) VALUES ($1, $2, NULL, $3, $4)',
          [id, alert.kind, alert.message, JSON.stringify(alert.data)],
        );
        return id;
      },
      liveColleagueEnrollments: (prospectId, sequenceIds) =>
        this.companyStops.liveColleagueEnrollments(client, prospectId, sequenceIds),
      sequencePolicies: () => this.companyStops.sequencePolicies(client),
      applyCompanyStop: (decisions, reason) => this.companyStops.apply(client, decisions, reason),
      suppress: (kind, value, reason) => this.suppressions.addIn(client, kind, value, reason),
      unsuppress: (kind, value) => this.suppressions.removeIn(client, kind, value),
      anySuppressed: (keys) => this.suppressions.matchesAny(client, keys),
      invalidateEmail: (prospectId) => this.prospects.invalidateEmail(client, prospectId),
      queueCrmNotification: (n) => this.outbox.enqueue(client, n),
      audit: (entry) => this.auditLog.writeIn(client, entry),
      recordTriage: async (item) => {
        await this.triage.record(client, item);
      },
      emailTaken: (email, prospectId) => this.prospects.emailTaken(client, email, prospectId),
      changeEmail: async (prospectId, email) => {
        await this.prospects.changeEmail(client, prospectId, email);
        await this.effects.startNewThreads(client, prospectId);
      },
      resumeEnded: (prospectId, status) => this.effects.resumeEnded(client, prospectId, status),
      bouncedTouch: (event, target) => this.softBounces.bouncedTouch(client, event, target),
      lockForResend: (enrollmentId) => this.softBounces.lockForResend(client, enrollmentId),
      laterTouchExists: (enrollmentId, step, attempt) =>
        this.softBounces.laterTouchExists(client, enrollmentId, step, attempt),
      moveToResend: (enrollmentId, step, attempt, nextTouchAt, nextTouchUnfittedAt) =>
        this.softBounces.moveToResend(client, enrollmentId, step, attempt, nextTouchAt, nextTouchUnfittedAt),
      personAddresses: (prospectId) => this.erasure.personAddresses(client, prospectId),
      eraseProspect: (target, addresses) => this.erasure.eraseProspect(client, target, addresses),
      lockEnrollmentsOf: (prospectId) => this.edges.lockEnrollmentsOf(client, prospectId),
      lockWaiting: (prospectId, enrollmentId, withPaused) =>
        this.edges.lockWaiting(client, prospectId, enrollmentId, withPaused),
      lockInFlight: (prospectId) => this.edges.lockInFlight(client, prospectId),
      nodeStarted: (enrollmentId, step, attempt) =>
        this.edges.nodeStarted(client, enrollmentId, step, attempt),
      touchStep: (touchId) => this.edges.touchStep(client, touchId),
      edgeEventsSince: (prospectId, touch) => this.edges.edgeEventsSince(client, prospectId, touch),
      moveAlongEdge: (enrollmentId, to, due) => this.edges.moveAlongEdge(client, enrollmentId, to, due),
    };
  }
}
