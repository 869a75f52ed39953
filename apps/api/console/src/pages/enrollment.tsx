import { useRoute } from 'preact-iso';
import { api, query } from '../api.js';
import { dateTime, dateTimeIn, LINKEDIN_ACTION_TEXT, waitingText, weekdays } from '../format.js';
import { Badge, ConfirmAction, REASON, Show, Table, useLoad } from '../ui.js';
import type { Enrollment, Prospect } from './people.js';

type Waiting = {
  reason: string;
  until: string | null;
  variables?: string[];
  cap?: string;
  detail?: string;
  /** The LinkedIn action whose cap is full. */
  action?: string;
  /** At a LinkedIn node: the account that acts (`chosen` false: the one the pool would pick). */
  linkedinAccount?: { id: string; name: string; chosen: boolean };
  /** The window waited for, and the zone its hours are read in. */
  window?: { days: number[]; start: string; end: string; timeZone: string };
};

/** The LinkedIn account a wait is about, its window, and the opening in the window's zone. */
function LinkedInWait({ w }: { w: Waiting }) {
  const account = w.linkedinAccount;
  if (!account) return null;
  return (
    <>
      {' ('}
      <span data-field="linkedin-account">
        {account.chosen
          ? `LinkedIn account ${account.name}`
          : `no LinkedIn account chosen yet: the campaign’s pool would pick ${account.name} when it goes`}
      </span>
      {w.window && (
        <span data-field="linkedin-window">
          {`; its window ${weekdays(w.window.days)} ${w.window.start}–${w.window.end} in ${w.window.timeZone}`}
          {w.until && `, next open ${dateTimeIn(w.until, w.window.timeZone)}`}
        </span>
      )}
      {')'}
    </>
  );
}

type Timeline = {
  enrollment: Enrollment;
  touches: {
    step: number;
    attempt: number;
    status: string;
    variant: number | null;
    error: string | null;
    createdAt: string;
    sentAt: string | null;
  }[];
  events: {
    seq: number;
    type: string;
    source: string;
    receivedAt: string;
    outcome: string | null;
    classification: string | null;
    why: string | null;
  }[];
  audit: { id: number; actor: string; action: string; data: Record<string, unknown>; at: string }[];
};

type Line = { at: string; kind: 'touch' | 'event' | 'audit'; what: string; detail: string };

function lines(t: Timeline): Line[] {
  const out: Line[] = [
    ...t.touches.map((x) => ({
      at: x.sentAt ?? x.createdAt,
      kind: 'touch' as const,
      what: `Step ${x.step}${x.attempt > 1 ? `, attempt ${x.attempt}` : ''}: ${x.status}`,
      detail: [x.variant ? `variant ${String.fromCharCode(65 + x.variant)}` : '', x.error ?? '']
        .filter(Boolean)
        .join('; '),
    })),
    ...t.events.map((x) => ({
      at: x.receivedAt,
      kind: 'event' as const,
      what: `${x.type} (${x.source})`,
      detail: [x.classification, x.why, x.outcome].filter(Boolean).join('; '),
    })),
    ...t.audit.map((x) => ({
      at: x.at,
      kind: 'audit' as const,
      what: `${x.action} by ${x.actor}`,
      detail: typeof x.data?.reason === 'string' ? x.data.reason : '',
    })),
  ];
  return out.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
}

const LIVE = ['queued', 'active', 'paused'];

/** One enrollment: where it stands, why it waits and until when, its timeline, and the operator's actions. */
export function EnrollmentPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const state = useLoad(
    () => api.get<Enrollment & { waiting: Waiting | null }>(`/v1/enrollments/${id}/waiting`),
    [id],
  );
  const timeline = useLoad(() => api.get<Timeline>(`/v1/enrollments/${id}/timeline`), [id]);
  const prospectId = state.data?.prospectId;
  const person = useLoad(
    () => (prospectId ? api.get<Prospect>(`/v1/prospects/${prospectId}`) : Promise.resolve(undefined)),
    [prospectId],
  );
  const reload = () => {
    state.reload();
    timeline.reload();
  };
  return (
    <>
      <p class="crumbs">
        <a href="/console/people">People</a>
        {prospectId && (
          <>
            {' › '}
            <a href={`/console/people/${prospectId}`}>{person.data?.email ?? 'person'}</a>
          </>
        )}
      </p>
      <h1>Enrollment {id.slice(0, 8)}</h1>
      <Show of={state}>
        {(e) => (
          <>
            <dl class="facts">
              <dt>Status</dt>
              <dd data-field="status">
                <Badge tone={e.status === 'active' ? 'ok' : e.status === 'paused' ? 'warn' : 'muted'}>
                  {e.status}
                </Badge>
              </dd>
              <dt>Step</dt>
              <dd>{e.currentStep}</dd>
              <dt>Sequence</dt>
              <dd>
                <a href={`/console/campaigns/${e.sequenceId}`}>funnel of its sequence</a>
              </dd>
              {e.stopReason && (
                <>
                  <dt>Stopped because</dt>
                  <dd>{e.stopReason}</dd>
                </>
              )}
            </dl>
            <section aria-labelledby="why-h" class="why">
              <h2 id="why-h">Why it is not sending</h2>
              {e.waiting ? (
                <p data-field="waiting" data-reason={e.waiting.reason}>
                  <strong>{waitingText(e.waiting.reason)}</strong>
                  {e.waiting.detail && <> ({e.waiting.detail})</>}
                  {e.waiting.variables && <> (missing: {e.waiting.variables.join(', ')})</>}
                  {e.waiting.cap && (
                    <>
                      {' '}
                      (the {e.waiting.cap} cap
                      {e.waiting.action && (
                        <> for {LINKEDIN_ACTION_TEXT[e.waiting.action] ?? e.waiting.action}</>
                      )}
                      )
                    </>
                  )}
                  <LinkedInWait w={e.waiting} />
                  {', '}
                  <span data-field="until">
                    {e.waiting.until ? `until ${dateTime(e.waiting.until)}` : 'until someone acts'}
                  </span>
                  .
                </p>
              ) : (
                <p data-field="waiting">It has ended: nothing more will be sent.</p>
              )}
            </section>
            <section aria-labelledby="actions-h">
              <h2 id="actions-h">Actions</h2>
              <div class="actions">
                {e.status === 'active' && (
                  <ConfirmAction
                    label="Pause"
                    title="Pause this enrollment"
                    description="No touch is sent until it is resumed, or until the date you give."
                    fields={[
                      REASON,
                      {
                        name: 'until',
                        label: 'Resume by itself on (optional)',
                        type: 'datetime-local',
                      },
                    ]}
                    run={(v) =>
                      api.post(`/v1/enrollments/${id}/pause`, {
                        reason: v.reason,
                        ...(v.until ? { until: new Date(v.until).toISOString() } : {}),
                      })
                    }
                    done={reload}
                  />
                )}
                {e.status === 'paused' && (
                  <ConfirmAction
                    label="Resume"
                    title="Resume this enrollment"
                    description="Its next touch is scheduled again. A missing variable must be filled first."
                    fields={[REASON]}
                    run={(v) => api.post(`/v1/enrollments/${id}/resume`, { reason: v.reason })}
                    done={reload}
                  />
                )}
                {LIVE.includes(e.status) && (
                  <ConfirmAction
                    label="Cancel"
                    danger
                    title="Cancel this enrollment"
                    description="It ends at once; its pending touch is not sent. This cannot be undone."
                    fields={[REASON]}
                    confirmLabel="Cancel the enrollment"
                    run={(v) => api.post(`/v1/enrollments/${id}/cancel`, { reason: v.reason })}
                    done={reload}
                  />
                )}
                {person.data && (
                  <ConfirmAction
                    label="Suppress address"
                    danger
                    title={`Suppress ${person.data.email}`}
                    description="The address is never sent to again, by any sequence; its live enrollments end now."
                    fields={[REASON]}
                    confirmLabel="Suppress"
                    run={(v) =>
                      api.post('/v1/suppressions', {
                        kind: 'email',
                        value: person.data?.email,
                        reason: v.reason,
                      })
                    }
                    done={reload}
                  />
                )}
                {prospectId && (
                  <ConfirmAction
                    label="Erase person"
                    danger
                    title="Erase this person (GDPR)"
                    description="Every sequence of the person ends and their data is deleted; only a hash of the address stays, so they are never contacted again. This cannot be undone."
                    fields={[REASON]}
                    confirmLabel="Erase"
                    run={(v) => api.delete(`/v1/prospects/${prospectId}${query({ reason: v.reason })}`)}
                    done={() => window.location.assign('/console/people')}
                  />
                )}
              </div>
            </section>
          </>
        )}
      </Show>
      <section aria-labelledby="timeline-h">
        <h2 id="timeline-h">Timeline</h2>
        <Show of={timeline}>
          {(t) => (
            <Table
              caption="Touches, events and audit entries, oldest first"
              columns={['When', 'Kind', 'What', 'Detail']}
            >
              {lines(t).map((l, i) => (
                <tr key={`${l.kind}-${i}`}>
                  <td>{dateTime(l.at)}</td>
                  <td>{l.kind}</td>
                  <td>{l.what}</td>
                  <td>{l.detail}</td>
                </tr>
              ))}
            </Table>
          )}
        </Show>
      </section>
    </>
  );
}
