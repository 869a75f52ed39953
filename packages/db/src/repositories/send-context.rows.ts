import {
  type ContactPolicy,
  ContactPolicySchema,
  type EnrollmentStatus,
  type SendingWindow,
} from '@touchbase/core';

/** Everything the sender needs to decide on and send one touch, in one read. */
export type SendContext = {
  enrollmentId: string;
  status: EnrollmentStatus;
  currentStep: number;
  /** Attempt of the current step's touch (above 1 after a soft bounce sent it back). */
  currentAttempt: number;
  sequenceId: string;
  sequenceVersionId: string;
  /** The sequence's mailbox pool; its first touch goes out from the member with the most room today. */
  mailboxPoolId: string | null;
  /** The sequence's own sending window, which overrides the mailbox's; null: the mailbox's. */
  sequenceWindow: SendingWindow | null;
  conversationId: string | null;
  firstMessageId: string | null;
  /** The sequence's contact policies (`policies.contact`), core's defaults filled in. */
  contactPolicy: ContactPolicy;
  prospect: {
    id: string;
    email: string;
    emailStatus: string;
    /** The recipient's company (its domain), for the recipient-domain cap. */
    companyDomain: string | null;
    firstName: string | null;
    lastName: string | null;
    company: string | null;
    timezone: string | null;
    attributes: Record<string, string>;
  };
  mailbox: SendMailbox;
  /** `holdTouches`: whether a pause of the domain holds the touches of running sequences too. */
  domain: { id: string; domain: string; status: string; holdTouches: boolean };
  nextTouchAt: Date | null;
};

/** The sending mailbox of a touch, with its caps and its provider settings (ids, never secrets). */
export type SendMailbox = {
  id: string;
  address: string;
  provider: string;
  status: string;
  timezone: string;
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  /** Local dates (YYYY-MM-DD) on which the mailbox does not send. */
  holidays: string[];
  perMinute: number;
  perHour: number;
  perDay: number;
  minSpacingMs: number;
  providerConfig: Record<string, unknown>;
};

/** The mailbox columns of a send context or a pool candidate, as {@link MAILBOX_COLUMNS} selects them. */
export type MailboxRow = {
  m_id: string;
  address: string;
  provider: string;
  m_status: string;
  m_tz: string;
  window_days: number[];
  window_start: string;
  window_end: string;
  holidays: string[] | null;
  per_minute: number;
  per_hour: number;
  per_day: number;
  min_spacing_ms: number;
  provider_config: Record<string, unknown> | null;
};

/** One row of the send-context read (`touch-load-many-for-send`). */
export type SendContextRow = MailboxRow & {
  id: string;
  status: EnrollmentStatus;
  current_step: number;
  current_attempt: number;
  sequence_id: string;
  sequence_version_id: string;
  conversation_id: string | null;
  first_message_id: string | null;
  next_touch_at: Date | null;
  p_id: string;
  email: string;
  email_status: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  p_tz: string | null;
  company_domain: string | null;
  attributes: Record<string, string> | null;
  mailbox_pool_id: string | null;
  /** The sequence's `policies.contact` as JSON text (null: none), the key of {@link contactPolicyOf}'s cache. */
  contact_policy: string | null;
  sending_window: SendingWindow | null;
  d_id: string;
  domain: string;
  d_status: string;
  d_hold: boolean;
};

export const MAILBOX_COLUMNS = `m.id AS m_id, m.address, m.provider, m.status AS m_status, m.timezone AS m_tz, m.window_days, m.window_start,
  m.window_end, m.holidays, m.per_minute, m.per_hour, m.per_day, m.min_spacing_ms, m.provider_config`;

/** A mailbox row as the sender reads it. */
export function mailboxOf(r: MailboxRow): SendMailbox {
  return {
    id: r.m_id,
    address: r.address,
    provider: r.provider,
    status: r.m_status,
    timezone: r.m_tz,
    windowDays: r.window_days,
    windowStart: r.window_start,
    windowEnd: r.window_end,
    holidays: r.holidays ?? [],
    perMinute: r.per_minute,
    perHour: r.per_hour,
    perDay: r.per_day,
    minSpacingMs: r.min_spacing_ms,
    providerConfig: r.provider_config ?? {},
  };
}

/** A send-context row as the sender reads it. */
export function sendContextOf(r: SendContextRow): SendContext {
  return {
    enrollmentId: r.id,
    status: r.status,
    currentStep: r.current_step,
    currentAttempt: r.current_attempt,
    sequenceId: r.sequence_id,
    sequenceVersionId: r.sequence_version_id,
    mailboxPoolId: r.mailbox_pool_id,
    sequenceWindow: r.sending_window ?? null,
    conversationId: r.conversation_id,
    firstMessageId: r.first_message_id,
    nextTouchAt: r.next_touch_at,
    contactPolicy: contactPolicyOf(r.contact_policy),
    prospect: {
      id: r.p_id,
      email: r.email,
      emailStatus: r.email_status,
      companyDomain: r.company_domain,
      firstName: r.first_name,
      lastName: r.last_name,
      company: r.company,
      timezone: r.p_tz,
      attributes: r.attributes ?? {},
    },
    mailbox: mailboxOf(r),
    domain: { id: r.d_id, domain: r.domain, status: r.d_status, holdTouches: r.d_hold },
  };
}

// A sequence's contact policy is the same text for every touch of it: parsed (and its
// defaults filled in) once per text, not once per touch. Shared, so frozen.
const policies = new Map<string, ContactPolicy>();

/** The contact policy of a `policies.contact` JSON text (null: a row written before contact policies: the defaults). */
export function contactPolicyOf(text: string | null): ContactPolicy {
  const key = text ?? '{}';
  let policy = policies.get(key);
  if (policy === undefined) {
    // Validated when written; parsed again here only for core's defaults.
    policy = deepFreeze(ContactPolicySchema.parse(JSON.parse(key)));
    if (policies.size >= 1_000) policies.clear();
    policies.set(key, policy);
  }
  return policy;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
