import type { ChartConfiguration } from 'chart.js/auto';
import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Page } from '../api.js';
import { ChartView, COLOURS } from '../chart.js';
import { count, dateTime, percent } from '../format.js';
import { num, Show, Table, useLoad } from '../ui.js';
import { CampaignTabs } from './campaigns.js';

type Sequence = { id: string; name: string; mailboxPoolId?: string | null };
type Mailbox = { id: string; address: string; status: string };

type Delay = { count: number; share: number; meanHours: number; p90Hours: number; maxHours: number };

/** The parts of `POST /v1/simulations`'s answer the page shows (see packages/simulator). */
export type SimulationReport = {
  input: { seed: number; start: string; horizonDays: number; prospects: number; steps: number };
  summary: {
    sends: number;
    lastTouchAt: string | null;
    lastTouchDay: number | null;
    finished: boolean;
    unfinished: number;
    enrolled: number;
    replied: number;
    bounced: number;
    exhausted: number;
  };
  days: { date: string; total: number; byMailbox: Record<string, number> }[];
  dailyCap: number;
  capUse: number;
  mailboxes: { id: string; sends: number; busiestDay: number; perDay: number }[];
  delays: { touches: number; byWindow: Delay; byCaps: Delay };
  funnel: {
    node: string;
    channel: string;
    sent: number;
    replied: number;
    bounced: number;
    outOfOffice: number;
    notYetSent: number;
  }[];
  domains: {
    domain: string;
    sends: number;
    bounceRate: number;
    warnsOn: string | null;
    crossesOn: string | null;
  }[];
  binding: {
    constraint: string;
    message: string;
    whatIf: {
      extraMailboxes: number;
      lastTouchAt: string | null;
      finished: boolean;
      daysSooner: number | null;
    }[];
  };
};

/** Mailboxes in the chart: told apart by the legend's words, these only help the eye. */
const MAILBOX_COLOURS = [
  COLOURS.sent,
  COLOURS.replied,
  COLOURS.unsubscribed,
  COLOURS.complaint,
  COLOURS.exhausted,
];

/** The current minute in the browser's zone, as a `datetime-local` value. */
function nowLocal(): string {
  const d = new Date();
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** "0.03" or "0.04, 0.03, 0.02" (one per step; the last repeats) → the API's odds; an error names the field. */
function parseOdds(label: string, text: string): number | number[] {
  const parts = text
    .split(/[,;\s]+/)
    .filter(Boolean)
    .map((p) => Number(p));
  if (parts.length === 0 || parts.some((n) => !Number.isFinite(n) || n < 0 || n > 1))
    throw new Error(`${label}: give numbers from 0 to 1, one for every step or one per step`);
  return parts.length === 1 ? (parts[0] as number) : parts;
}

/**
 * A dry run of one campaign: `POST /v1/simulations` with its `sequenceId` (the latest
 * version's steps and waits, its window and pool), the pool's members or the mailboxes
 * picked here, and the prospects count, horizon, odds, seed and start of the form.
 * Nothing is sent and nothing changes (the route needs only the read scope).
 */
export function SimulatePage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const sequence = useLoad(() => api.get<Sequence>(`/v1/sequences/${id}`), [id]);
  const mailboxes = useLoad(() => api.get<Page<Mailbox>>('/v1/mailboxes?limit=500'), []);
  const [report, setReport] = useState<SimulationReport>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const pooled = Boolean(sequence.data?.mailboxPoolId);

  const run = async (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    setError(undefined);
    try {
      const mailboxIds = data.getAll('mailboxIds').map(String);
      if (!pooled && mailboxIds.length === 0) throw new Error('Mailboxes: pick at least one');
      const start = new Date(text('start'));
      if (Number.isNaN(start.getTime())) throw new Error('Start: give a date and time');
      const body = {
        sequenceId: id,
        ...(pooled ? {} : { mailboxIds }),
        start: start.toISOString(),
        prospects: { count: Number(text('prospects')) },
        horizonDays: Number(text('days')),
        seed: Number(text('seed')),
        odds: {
          reply: parseOdds('Reply odds', text('reply')),
          bounce: parseOdds('Bounce odds', text('bounce')),
          outOfOffice: parseOdds('Out-of-office odds', text('outOfOffice')),
        },
      };
      setBusy(true);
      setReport(await api.post<SimulationReport>('/v1/simulations', body));
    } catch (err) {
      setReport(undefined);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const name = sequence.data?.name ?? 'Campaign';
  return (
    <>
      <p class="crumbs">
        <a href="/console/campaigns">Campaigns</a>
      </p>
      <h1>Simulate {name}</h1>
      <CampaignTabs id={id} current="simulate" />
      <p class="hint">
        A dry run on a virtual clock with the rules the live system uses (windows, caps, spacing, pool,
        out-of-office pauses, the bounce guard): nothing is sent, nothing changes. The same input gives the
        same answer.
      </p>
      <Show of={mailboxes}>
        {(page) => (
          <form class="sim-form" onSubmit={run} aria-label="Simulation">
            <p>
              <label for="sim-prospects">Prospects</label>
              <input
                id="sim-prospects"
                name="prospects"
                type="number"
                min={1}
                max={200000}
                required
                defaultValue="500"
              />
            </p>
            <p>
              <label for="sim-days">Days to simulate</label>
              <input id="sim-days" name="days" type="number" min={1} max={366} required defaultValue="60" />
            </p>
            <p>
              <label for="sim-seed">Seed</label>
              <input
                id="sim-seed"
                name="seed"
                type="number"
                min={0}
                max={4294967295}
                required
                defaultValue="1"
              />
            </p>
            <p>
              <label for="sim-start">Start (your local time)</label>
              <input id="sim-start" name="start" type="datetime-local" required defaultValue={nowLocal()} />
            </p>
            {(
              [
                ['reply', 'Reply odds', '0.03'],
                ['bounce', 'Bounce odds', '0.01'],
                ['outOfOffice', 'Out-of-office odds', '0.02'],
              ] as const
            ).map(([field, label, value]) => (
              <p key={field}>
                <label for={`sim-${field}`}>{label}</label>
                <input
                  id={`sim-${field}`}
                  name={field}
                  type="text"
                  inputMode="decimal"
                  required
                  defaultValue={value}
                  aria-describedby="sim-odds-hint"
                />
              </p>
            ))}
            <small id="sim-odds-hint" class="hint wide">
              Odds from 0 to 1 after each touch: one number for every step, or one per step separated by
              commas (the last repeats).
            </small>
            {pooled ? (
              <p class="wide">Mailboxes: the active members of the campaign’s pool.</p>
            ) : (
              <fieldset class="wide">
                <legend>Mailboxes (the campaign has no pool)</legend>
                {page.items.length === 0 && <p>No mailbox yet: create one with POST /v1/mailboxes.</p>}
                {page.items.map((m) => (
                  <label key={m.id} class="check">
                    <input type="checkbox" name="mailboxIds" value={m.id} /> {m.address}
                    {m.status !== 'active' && ` (${m.status})`}
                  </label>
                ))}
              </fieldset>
            )}
            <div class="actions wide">
              <button type="submit" class="primary" disabled={busy}>
                {busy ? 'Simulating…' : 'Simulate'}
              </button>
            </div>
          </form>
        )}
      </Show>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {/* A short line for screen readers when a run ends; the result itself is read at will. */}
      <p role="status" class="visually-hidden">
        {busy ? 'Simulating…' : report ? `Simulated: ${report.binding.message}` : ''}
      </p>
      {report && <SimulationView report={report} />}
    </>
  );
}

function hours(n: number): string {
  return `${n.toLocaleString('en', { maximumFractionDigits: 1 })} h`;
}

function SimulationView({ report }: { report: SimulationReport }) {
  const { summary, binding, delays } = report;
  // Sends per day stacked by mailbox, with the sum of the daily caps as a line: the
  // simulator's SVG picture, drawn by Chart.js from the JSON (see the README).
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: report.days.map((d) => d.date),
        datasets: [
          {
            type: 'line',
            label: `Daily caps (${report.dailyCap})`,
            data: report.days.map(() => report.dailyCap),
            borderColor: COLOURS.threshold,
            borderDash: [6, 4],
            pointRadius: 0,
            fill: false,
          },
          ...report.mailboxes.map((m, i) => ({
            type: 'bar' as const,
            label: m.id,
            data: report.days.map((d) => d.byMailbox[m.id] ?? 0),
            backgroundColor: MAILBOX_COLOURS[i % MAILBOX_COLOURS.length] as string,
            stack: 'sends',
          })),
        ],
      },
      options: {
        plugins: { legend: { position: 'bottom' } },
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, title: { display: true, text: 'Sends per day' } },
        },
      },
    }),
    [report],
  );
  return (
    <section aria-labelledby="sim-result-h" data-field="simulation">
      <h2 id="sim-result-h">Result</h2>
      <p class="binding" data-field="binding" data-constraint={binding.constraint}>
        {binding.message}
      </p>
      <dl class="figures" aria-label="Simulation totals">
        <div class="wide">
          <dt>Last touch</dt>
          <dd data-field="lastTouch">
            {summary.lastTouchAt ? (
              <time dateTime={summary.lastTouchAt}>{dateTime(summary.lastTouchAt)}</time>
            ) : (
              'none'
            )}
          </dd>
        </div>
        <div>
          <dt>Day of last touch</dt>
          <dd data-metric="lastTouchDay">{summary.lastTouchDay ?? '–'}</dd>
        </div>
        <div>
          <dt>Enrolled</dt>
          <dd data-metric="enrolled">{count(summary.enrolled)}</dd>
        </div>
        <div>
          <dt>Sends</dt>
          <dd data-metric="sends">{count(summary.sends)}</dd>
        </div>
        <div>
          <dt>Replied</dt>
          <dd data-metric="replied">{count(summary.replied)}</dd>
        </div>
        <div>
          <dt>Bounced</dt>
          <dd data-metric="bounced">{count(summary.bounced)}</dd>
        </div>
        <div>
          <dt>Exhausted</dt>
          <dd data-metric="exhausted">{count(summary.exhausted)}</dd>
        </div>
        <div>
          <dt>Unfinished at the horizon</dt>
          <dd data-metric="unfinished">{count(summary.unfinished)}</dd>
        </div>
        <div>
          <dt>Cap use</dt>
          <dd data-metric="capUse">{percent(report.capUse)}</dd>
        </div>
      </dl>

      <h3>Sends per day</h3>
      <ChartView
        config={config}
        label={`Stacked bar chart of the sends of each of ${report.mailboxes.length} mailboxes on each of ${report.days.length} days, with the daily caps as a line; the table below has the numbers`}
      />
      <details>
        <summary>Sends per day as a table</summary>
        <Table
          caption="Sends per day and mailbox"
          columns={['Day (UTC)', ...report.mailboxes.map((m) => num(m.id)), num('Total')]}
        >
          {report.days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              {report.mailboxes.map((m) => (
                <td class="num" key={m.id}>
                  {count(d.byMailbox[m.id] ?? 0)}
                </td>
              ))}
              <td class="num">{count(d.total)}</td>
            </tr>
          ))}
        </Table>
      </details>

      <h3>Funnel per step</h3>
      <Table
        caption="Projected funnel per step"
        columns={[
          'Step',
          'Channel',
          ...['Sent', 'Replied', 'Bounced', 'Out of office', 'Not sent by the horizon'].map(num),
        ]}
      >
        {report.funnel.map((f) => (
          <tr key={f.node} data-node={f.node}>
            <th scope="row">{f.node}</th>
            <td>{f.channel}</td>
            <td class="num" data-metric="sent">
              {count(f.sent)}
            </td>
            <td class="num" data-metric="replied">
              {count(f.replied)}
            </td>
            <td class="num" data-metric="bounced">
              {count(f.bounced)}
            </td>
            <td class="num" data-metric="outOfOffice">
              {count(f.outOfOffice)}
            </td>
            <td class="num" data-metric="notYetSent">
              {count(f.notYetSent)}
            </td>
          </tr>
        ))}
      </Table>

      <h3>Delays</h3>
      <Table
        caption={<>Touches delayed past their due time, of {count(delays.touches)} touches</>}
        columns={['Cause', ...['Touches', 'Share', 'Mean', '90th percentile', 'Longest'].map(num)]}
      >
        {(
          [
            ['byWindow', 'Sending windows'],
            ['byCaps', 'Mailbox caps and spacing'],
          ] as const
        ).map(([key, label]) => (
          <tr key={key} data-delay={key}>
            <th scope="row">{label}</th>
            <td class="num">{count(delays[key].count)}</td>
            <td class="num">{percent(delays[key].share)}</td>
            <td class="num">{hours(delays[key].meanHours)}</td>
            <td class="num">{hours(delays[key].p90Hours)}</td>
            <td class="num">{hours(delays[key].maxHours)}</td>
          </tr>
        ))}
      </Table>

      {binding.whatIf.length > 0 && (
        <>
          <h3>With more mailboxes</h3>
          <Table
            caption="Re-runs with more mailboxes like the last one"
            columns={['Extra mailboxes', 'Last touch', num('Days sooner'), 'Finished']}
          >
            {binding.whatIf.map((w) => (
              <tr key={w.extraMailboxes}>
                <th scope="row">+{w.extraMailboxes}</th>
                <td>{dateTime(w.lastTouchAt)}</td>
                <td class="num">{w.daysSooner ?? '–'}</td>
                <td>{w.finished ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </Table>
        </>
      )}

      {report.domains.some((d) => d.warnsOn || d.crossesOn) && (
        <>
          <h3>Bounce guard</h3>
          <ul>
            {report.domains.map((d) => (
              <li key={d.domain}>
                {d.domain}: {percent(d.bounceRate)} bounces of {count(d.sends)} sends
                {d.warnsOn && `; warns on ${d.warnsOn}`}
                {d.crossesOn && `; paused by the guard on ${d.crossesOn}`}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
