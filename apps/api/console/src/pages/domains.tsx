import type { ChartConfiguration } from 'chart.js/auto';
import { useMemo } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Page } from '../api.js';
import { ChartView, COLOURS } from '../chart.js';
import { count, dateTime, percent } from '../format.js';
import { Badge, ConfirmAction, num, REASON, Show, Table, useLoad } from '../ui.js';

type Domain = {
  id: string;
  domain: string;
  status: 'active' | 'paused';
  reason: string | null;
  statusSince: string | null;
  pausedBy: string | null;
  healthLevel: 'ok' | 'approaching' | 'over';
  figures: { sends?: number; bounceRate?: number; complaintRate?: number } | null;
  mailboxes: number;
};

type DomainDetail = Domain & {
  days: { day: string; sends: number; bounces: number; complaints: number }[];
  alerts: { id: string; kind: string; message: string; createdAt: string }[];
};

type MailboxUsage = {
  id: string;
  address: string;
  domain: string;
  status: 'active' | 'paused';
  statusReason: string | null;
  caps: { perMinute: number; perHour: number; perDay: number };
  used: { minute: number; hour: number; day: number };
  sentToday: number;
  lastSentAt: string | null;
};

/** The guard's bounce threshold (a share); 3% unless the account's settings say otherwise. */
function threshold(account: { settings?: { bounceThreshold?: unknown } } | undefined): number {
  const t = Number(account?.settings?.bounceThreshold);
  return Number.isFinite(t) && t > 0 ? t : 0.03;
}

const HEALTH_TONE = { ok: 'ok', approaching: 'warn', over: 'bad' } as const;

/** Sending domains (health, pauses) and mailboxes (cap usage, pauses). */
export function DomainsPage() {
  const domains = useLoad(() => api.get<Page<Domain>>('/v1/domains?limit=500'), []);
  const usage = useLoad(() => api.get<Page<MailboxUsage>>('/v1/mailboxes/usage?limit=500'), []);
  return (
    <>
      <h1>Domains and mailboxes</h1>
      <section aria-labelledby="domains-h">
        <h2 id="domains-h">Sending domains</h2>
        <Show of={domains}>
          {(page) => (
            <Table
              caption="Sending domains, their last figures and state"
              columns={[
                'Domain',
                'State',
                'Health',
                num('Sends'),
                num('Bounce rate'),
                num('Complaint rate'),
                'Why paused',
              ]}
            >
              {page.items.map((d) => (
                <tr key={d.id} data-domain={d.domain}>
                  <th scope="row">
                    <a href={`/console/domains/${d.id}`}>{d.domain}</a>
                  </th>
                  <td>
                    <Badge tone={d.status === 'paused' ? 'bad' : 'ok'}>{d.status}</Badge>
                  </td>
                  <td>
                    <Badge tone={HEALTH_TONE[d.healthLevel] ?? 'muted'}>{d.healthLevel}</Badge>
                  </td>
                  <td class="num">{count(d.figures?.sends)}</td>
                  <td class="num">{percent(d.figures?.bounceRate)}</td>
                  <td class="num">{percent(d.figures?.complaintRate, 2)}</td>
                  <td>{d.status === 'paused' ? (d.reason ?? '–') : ''}</td>
                </tr>
              ))}
            </Table>
          )}
        </Show>
      </section>
      <section aria-labelledby="mailboxes-h">
        <h2 id="mailboxes-h">Mailboxes: cap usage</h2>
        <Show of={usage}>
          {(page) => (
            <Table
              caption="Sends today (in the mailbox's zone) against the daily cap, and in the sender's sliding day, hour and minute windows against each cap"
              columns={[
                'Mailbox',
                'State',
                'Today',
                num('Last 24 h'),
                num('Last hour'),
                num('Last minute'),
                'Last send',
                'Action',
              ]}
            >
              {page.items.map((m) => (
                <tr key={m.id} data-mailbox={m.address}>
                  <th scope="row">{m.address}</th>
                  <td>
                    <Badge tone={m.status === 'paused' ? 'bad' : 'ok'}>{m.status}</Badge>
                    {m.statusReason && <div class="reason">{m.statusReason}</div>}
                  </td>
                  <td data-field="today">
                    <meter
                      min={0}
                      max={m.caps.perDay}
                      high={m.caps.perDay * 0.9}
                      value={m.sentToday}
                      aria-label={`${m.address}: ${m.sentToday} of ${m.caps.perDay} sends today`}
                    />{' '}
                    {count(m.sentToday)} / {count(m.caps.perDay)}
                  </td>
                  <td class="num">
                    {count(m.used.day)} / {count(m.caps.perDay)}
                  </td>
                  <td class="num">
                    {count(m.used.hour)} / {count(m.caps.perHour)}
                  </td>
                  <td class="num">
                    {count(m.used.minute)} / {count(m.caps.perMinute)}
                  </td>
                  <td>{dateTime(m.lastSentAt)}</td>
                  <td>
                    {m.status === 'paused' && (
                      <ConfirmAction
                        label={`Resume ${m.address}`}
                        title={`Resume ${m.address}`}
                        description="The mailbox sends again; its held touches go out within its caps."
                        fields={[REASON]}
                        run={(v) => api.post(`/v1/mailboxes/${m.id}/resume`, { reason: v.reason })}
                        done={usage.reload}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Show>
      </section>
    </>
  );
}

/** One sending domain: its bounce and complaint rates day by day, the threshold, its pauses; resume it. */
export function DomainPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const domain = useLoad(() => api.get<DomainDetail>(`/v1/domains/${id}`), [id]);
  const health = useLoad(
    () => api.get<{ account: { settings?: { bounceThreshold?: unknown } } }>('/v1/domains/health'),
    [],
  );
  return (
    <>
      <p class="crumbs">
        <a href="/console/domains">Domains and mailboxes</a>
      </p>
      <Show of={domain}>
        {(d) => (
          <>
            <h1>{d.domain}</h1>
            <dl class="facts">
              <dt>State</dt>
              <dd data-field="status">
                <Badge tone={d.status === 'paused' ? 'bad' : 'ok'}>{d.status}</Badge>
              </dd>
              {d.status === 'paused' && (
                <>
                  <dt>Why</dt>
                  <dd>{d.reason ?? '–'}</dd>
                  <dt>Since</dt>
                  <dd>{dateTime(d.statusSince)}</dd>
                </>
              )}
              <dt>Mailboxes</dt>
              <dd>{count(d.mailboxes)}</dd>
            </dl>
            {d.status === 'paused' && (
              <ConfirmAction
                label="Resume domain"
                title={`Resume ${d.domain}`}
                description="Held enrollments get their first touch and paused touches go on. Audited and alerted to ops."
                fields={[
                  { name: 'by', label: 'Your name', required: true },
                  { name: 'reason', label: 'Reason', required: true, hint: 'At least 3 characters' },
                ]}
                run={(v) => api.post(`/v1/domains/${id}/resume`, { by: v.by, reason: v.reason })}
                done={domain.reload}
              />
            )}
            <DomainChart domain={d} threshold={threshold(health.data?.account)} />
            <h2>Alerts</h2>
            {d.alerts.length === 0 ? (
              <p>No alert.</p>
            ) : (
              <ul>
                {d.alerts.map((a) => (
                  <li key={a.id}>
                    {dateTime(a.createdAt)}: <strong>{a.kind}</strong> {a.message}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Show>
    </>
  );
}

function DomainChart({ domain, threshold: limit }: { domain: DomainDetail; threshold: number }) {
  const days = [...domain.days].sort((a, b) => a.day.localeCompare(b.day));
  const pausedDays = new Set(
    domain.alerts.filter((a) => a.kind.includes('paused')).map((a) => a.createdAt.slice(0, 10)),
  );
  if (domain.status === 'paused' && domain.statusSince) pausedDays.add(domain.statusSince.slice(0, 10));
  const labels = [...new Set([...days.map((d) => d.day.slice(0, 10)), ...pausedDays])].sort();
  const byDay = new Map(days.map((d) => [d.day.slice(0, 10), d]));
  const rate = (part: (d: DomainDetail['days'][number]) => number) =>
    labels.map((l) => {
      const d = byDay.get(l);
      return d && d.sends > 0 ? (part(d) / d.sends) * 100 : null;
    });
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'line',
      data: {
        labels,
        datasets: [
          {
            label: 'Bounce rate (%)',
            data: rate((d) => d.bounces),
            borderColor: COLOURS.bounced,
            spanGaps: true,
          },
          {
            label: 'Complaint rate (%)',
            data: rate((d) => d.complaints),
            borderColor: COLOURS.complaint,
            spanGaps: true,
          },
          {
            label: `Pause threshold (${percent(limit)})`,
            data: labels.map(() => limit * 100),
            borderColor: COLOURS.threshold,
            borderDash: [6, 4],
            pointRadius: 0,
          },
          {
            label: 'Paused',
            data: labels.map((l) => (pausedDays.has(l) ? limit * 100 : null)),
            borderColor: '#000',
            backgroundColor: '#000',
            showLine: false,
            pointStyle: 'triangle',
            pointRadius: 9,
          },
        ],
      },
      options: {
        plugins: { legend: { position: 'bottom' } },
        scales: { y: { beginAtZero: true, title: { display: true, text: '% of sends' } } },
      },
    }),
    [domain, limit],
  );
  return (
    <section aria-labelledby="rates-h">
      <h2 id="rates-h">Bounce and complaint rate per day</h2>
      <ChartView
        config={config}
        label={`Line chart of the daily bounce and complaint rates of ${domain.domain} against the ${percent(limit)} pause threshold, with the days it was paused marked; the table below has the numbers`}
      />
      <Table
        caption="Sends, bounces and complaints per day"
        columns={['Day', num('Sends'), num('Bounces'), num('Bounce rate'), num('Complaints'), 'Paused']}
      >
        {labels.map((l) => {
          const d = byDay.get(l);
          return (
            <tr key={l}>
              <th scope="row">{l}</th>
              <td class="num">{count(d?.sends ?? 0)}</td>
              <td class="num">{count(d?.bounces ?? 0)}</td>
              <td class="num">{percent(d && d.sends > 0 ? d.bounces / d.sends : null)}</td>
              <td class="num">{count(d?.complaints ?? 0)}</td>
              <td>{pausedDays.has(l) ? 'paused' : ''}</td>
            </tr>
          );
        })}
      </Table>
    </section>
  );
}
