import {
  campaignDatesAt,
  companyDomainOf,
  contactDayOf,
  DomainError,
  normalisedEmail,
  SendingWindowError,
} from '@touchbase/core';
import { linkedInCapsOf, type Repositories } from '@touchbase/db';
import {
  listOfCsv,
  ProspectListError,
  type SimulatedMailbox,
  SimulationInputSchema,
  type SimulationReport,
  simulate,
} from '@touchbase/simulator';
import { z } from 'zod';

/**
 * A dry run's request: the simulator's input, where the sequence may instead be an
 * existing one (`sequenceId`, its latest version, window and pool) and the
 * mailboxes existing ones (`mailboxIds`; a pool sequence defaults to its members).
 * `start` defaults to now.
 */
export const SimulationRequestSchema = SimulationInputSchema.extend({
  start: SimulationInputSchema.shape.start.optional(),
  sequence: SimulationInputSchema.shape.sequence.optional(),
  sequenceId: z
    .uuid()
    .optional()
    .describe(
      "An existing sequence: a version's steps or graph (the latest unless `version`), its window and pool",
    ),
  version: z
    .union([z.number().int().min(1), z.uuid()])
    .optional()
    .describe('The version of `sequenceId` to run, by number (1, 2, ...) or id; default: its latest'),
  mailboxes: SimulationInputSchema.shape.mailboxes.optional(),
  linkedinAccounts: SimulationInputSchema.shape.linkedinAccounts
    .unwrap()
    .optional()
    .describe(
      "LinkedIn accounts with their caps; default: a pool sequence's active LinkedIn accounts, else one account with the default caps",
    ),
  mailboxIds: z
    .array(z.uuid())
    .min(1)
    .max(200)
    .optional()
    .describe('Existing mailboxes, with their caps and windows'),
});
export type SimulationRequest = z.input<typeof SimulationRequestSchema>;

/** `repos` may be left out when the request names no existing sequence or mailbox (the CLI without a database). */
type SimulateDeps = {
  repos?: Pick<
    Repositories,
    'sequences' | 'mailboxes' | 'linkedinAccounts' | 'enrollments' | 'contactPolicies'
  >;
  clock: () => Date;
};

/**
 * Resolves a request against the database (read only: nothing is written, no job
 * is made) and runs the simulator. A missing sequence, mailbox or pool answers
 * 404; a request naming neither a sequence nor mailboxes, a window that never
 * opens or an unreadable prospect list answers 422 naming the field.
 */
export async function simulateCampaign(
  deps: SimulateDeps,
  request: SimulationRequest,
): Promise<SimulationReport> {
  const { sequenceId, version: versionRef, mailboxIds, ...rest } = request;
  let sequence = rest.sequence;
  let poolId: string | null = null;
  let start = rest.start ?? deps.clock().toISOString();
  if (versionRef !== undefined && !sequenceId) throw invalid('version', 'a version is of a `sequenceId`');
  if (sequenceId) {
    const repos = deps.repos;
    if (!repos) throw invalid('sequenceId', 'reading an existing sequence needs the database');
    const [window, row, policies] = await Promise.all([
      repos.sequences.sendingWindow(sequenceId),
      repos.sequences.get(sequenceId),
      repos.sequences.policies(sequenceId),
    ]);
    const version = await versionOf(repos, sequenceId, row.versions, versionRef);
    // The campaign dates, as enrolling applies them at `start`: after the end nothing new
    // starts; before the start, first touches wait for it.
    const dates = campaignDatesAt(policies, new Date(start));
    if (dates.ended) throw invalid('start', `the sequence ended at ${dates.endsAt}: nothing new starts`);
    if (dates.notBefore) start = dates.notBefore.toISOString();
    // A version given as steps runs as their chain; one given as a graph runs its graph.
    sequence = {
      id: sequenceId,
      name: row.name,
      exclusive: policies.contact.exclusive,
      // The sender holds touches for these (its `holdForContactPolicy`): the preview does too.
      contactPolicy: {
        cooldownDays: policies.contact.cooldownDays,
        newPeoplePerDay: policies.contact.newPeoplePerDay,
        recipientDomainPerDay: policies.contact.recipientDomainPerDay,
      },
      ...(version.steps.length > 0
        ? { steps: version.steps.map((s) => ({ channel: s.channel, wait: s.wait })) }
        : { graph: version.graph }),
      window,
    };
    poolId = row.mailboxPoolId;
  }
  if (!sequence) throw invalid('sequence', 'give `sequence` (steps and waits, or a graph) or `sequenceId`');

  let mailboxes = rest.mailboxes;
  let assignment = rest.assignment;
  if (!mailboxes) {
    let ids = mailboxIds;
    const repos = deps.repos;
    if (!repos) throw invalid('mailboxIds', 'reading existing mailboxes needs the database');
    if (!ids && poolId) {
      // The pool's active members: a paused one is no candidate for a first touch.
      const pool = await repos.mailboxes.getPool(poolId);
      ids = pool.members.map((m) => m.mailboxId);
      assignment ??= 'pool';
    }
    if (!ids || ids.length === 0)
      throw invalid('mailboxes', 'give `mailboxes`, `mailboxIds`, or a sequence with a pool');
    const rows = await Promise.all(ids.map((id) => repos.mailboxes.get(id)));
    mailboxes = rows.filter((r) => r.status === 'active' || !poolId).map(mailboxOf);
    if (mailboxes.length === 0) throw invalid('mailboxIds', 'every mailbox of the pool is paused');
  }
  let linkedinAccounts = rest.linkedinAccounts;
  if (!linkedinAccounts && poolId && deps.repos) {
    // The pool's active LinkedIn accounts with their caps, as the sender picks among them,
    // and the window and zone their actions go out in.
    const rows = await deps.repos.linkedinAccounts.activeInPool(poolId);
    if (rows.length > 0)
      linkedinAccounts = rows.map((r) => ({
        id: r.name,
        ...linkedInCapsOf(r),
        windowDays: r.windowDays,
        windowStart: r.windowStart,
        windowEnd: r.windowEnd,
        holidays: r.holidays,
        timezone: r.timezone,
      }));
  }
  try {
    const prospects = deps.repos
      ? await withWhatTheSystemKnows(deps.repos, rest.prospects, new Date(start), sequenceId ?? null)
      : rest.prospects;
    const counted =
      sequenceId && deps.repos
        ? await countedToday(deps.repos, sequenceId, sequence, mailboxes, prospects, new Date(start))
        : [];
    return simulate({
      ...rest,
      prospects,
      ...(linkedinAccounts ? { linkedinAccounts } : {}),
      ...(assignment ? { assignment } : {}),
      start,
      sequence: counted.length > 0 ? { ...sequence, countedToday: counted } : sequence,
      mailboxes,
    });
  } catch (err) {
    if (err instanceof ProspectListError) throw invalid(err.field, err.message);
    if (err instanceof SendingWindowError) throw invalid('sequence.window', err.message);
    throw err;
  }
}

/** The version `ref` names (its number or id) among the sequence's, else the latest; 404 naming the field when it has none such. */
async function versionOf(
  repos: Pick<Repositories, 'sequences'>,
  sequenceId: string,
  versions: readonly { id: string; version: number }[],
  ref: number | string | undefined,
) {
  if (ref === undefined) return repos.sequences.latestVersion(sequenceId);
  const found = versions.find((v) => (typeof ref === 'number' ? v.version === ref : v.id === ref));
  if (!found)
    throw new DomainError('not_found', `sequence ${sequenceId} has no version ${ref}`, { field: 'version' });
  return repos.sequences.version(found.id);
}

/** The most rows a list takes (`prospects.list`); a longer CSV runs without what the database knows. */
const MAX_LIST_ROWS = 200_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A list of existing prospects (rows whose id is a prospect's, or whose `email` is an
 * address) with what the live system knows of them, read from the database (reads
 * only; a field the row gives itself is kept): the sequences each is live in now, so
 * exclusivity refuses whom enrolling would; a suppressed address or a person cooling
 * off (`refusal`, by the query and rule enrollment uses); whether they were ever
 * enrolled in the existing sequence `sequenceId` (`enrolledInSequence`, enrolling's
 * rule: ended enrollments count); their company domain and last touch, for the
 * contact policies. `now` is the enrollment's time (the run's start).
 */
async function withWhatTheSystemKnows(
  repos: Pick<Repositories, 'enrollments'>,
  prospects: SimulationRequest['prospects'],
  now: Date,
  sequenceId: string | null,
): Promise<SimulationRequest['prospects']> {
  if ('count' in prospects) return prospects;
  // A CSV as its rows (the simulator's reading of it), so what is known of its people applies.
  if ('csv' in prospects) {
    const rows = listOfCsv(prospects.csv);
    if (rows.length > MAX_LIST_ROWS) return prospects;
    prospects = { list: rows };
  }
  const ids = [...new Set(prospects.list.flatMap((p) => (p.id && UUID.test(p.id) ? [p.id] : [])))];
  const addresses = [...new Set(prospects.list.flatMap((p) => (p.email ? [p.email] : [])))];
  if (ids.length === 0 && addresses.length === 0) return prospects;
  const [live, people] = await Promise.all([
    ids.length > 0 ? repos.enrollments.liveEnrollmentsOf(ids) : new Map<string, never>(),
    repos.enrollments.dryRunPeople(ids, addresses, now, sequenceId),
  ]);
  return {
    list: prospects.list.map((p) => {
      const person =
        (p.id ? people.get(p.id) : undefined) ??
        (p.email ? people.get(`email:${normalisedEmail(p.email)}`) : undefined);
      const liveIn = p.liveIn ?? (p.id ? live.get(p.id) : undefined);
      if (!person) return liveIn ? { ...p, liveIn } : p;
      const refusal = p.refusal ?? person.refusal;
      const enrolledInSequence = p.enrolledInSequence ?? person.enrolledInSequence;
      return {
        ...p,
        ...(liveIn ? { liveIn } : {}),
        ...(enrolledInSequence ? { enrolledInSequence } : {}),
        email: p.email ?? person.email,
        companyDomain: p.companyDomain !== undefined ? p.companyDomain : person.companyDomain,
        lastContactAt:
          p.lastContactAt !== undefined ? p.lastContactAt : (person.lastContactAt?.toISOString() ?? null),
        ...(refusal ? { refusal } : {}),
      };
    }),
  };
}

/**
 * What an existing sequence's day caps counted on the run's first day before it starts,
 * in each mailbox's zone (core's `contactDayOf`, the sender's day): its first touches
 * (new people a day) and the touches to the companies of the list (recipient-domain
 * cap), read by the query the sender counts with (`ContactPolicyRepository.countedSince`),
 * so the preview's caps start where the live ones stand. Empty when no cap is set.
 */
async function countedToday(
  repos: Pick<Repositories, 'contactPolicies'>,
  sequenceId: string,
  sequence: NonNullable<SimulationRequest['sequence']>,
  mailboxes: NonNullable<SimulationRequest['mailboxes']>,
  prospects: SimulationRequest['prospects'],
  start: Date,
) {
  const policy = sequence.contactPolicy;
  const perDomain = policy?.recipientDomainPerDay != null;
  if (policy?.newPeoplePerDay == null && !perDomain) return [];
  const zones = [...new Set(mailboxes.map((m) => m.timezone ?? 'UTC'))];
  const dayStarts = [
    ...new Map(
      zones.map((timeZone) => {
        const day = contactDayOf(start, { timeZone }).start;
        return [day.getTime(), day] as const;
      }),
    ).values(),
  ];
  const domains =
    perDomain && 'list' in prospects
      ? prospects.list.flatMap((p) => companyDomainOf(p.email ?? '', p.companyDomain) ?? [])
      : [];
  const counted = await repos.contactPolicies.countedSince(sequenceId, domains, dayStarts);
  return counted.map((c) => ({ ...c, dayStart: c.dayStart.toISOString() }));
}

function mailboxOf(row: Awaited<ReturnType<Repositories['mailboxes']['get']>>): SimulatedMailbox {
  return {
    id: row.address,
    domain: row.domain.domain,
    perMinute: row.perMinute,
    perHour: row.perHour,
    perDay: row.perDay,
    minSpacingMs: row.minSpacingMs,
    windowDays: row.windowDays,
    windowStart: row.windowStart,
    windowEnd: row.windowEnd,
    holidays: row.holidays,
    timezone: row.timezone,
  };
}

function invalid(field: string, message: string): DomainError {
  return new DomainError('invalid_sequence', message, { field });
}
