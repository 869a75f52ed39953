import type { ChartConfiguration } from 'chart.js/auto';
import { useMemo } from 'preact/hooks';
import { ChartView, COLOURS } from '../chart.js';
import { count, dateTime, percent } from '../format.js';
import { num, Table } from '../ui.js';

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
  days: {
    date: string;
    total: number;
    byMailbox: Record<string, number>;
    byLinkedInAccount?: Record<string, number>;
  }[];
  dailyCap: number;
  capUse: number;
  mailboxes: { id: string; sends: number; busiestDay: number; perDay: number }[];
  delays: { touches: number; byWindow: Delay; byCaps: Delay };
  /** The LinkedIn accounts under their caps, when the sequence has LinkedIn actions. */
  linkedin?: {
    accounts: {
      id: string;
      sends: Record<LinkedInAction, number>;
      invitationsPerDay: number;
      invitationsPerWeek: number;
      messagesPerDay: number;
      profileVisitsPerDay: number;
    }[];
    dailyCaps: Record<LinkedInAction, number>;
    /** The caps lines to draw: the summed daily cap of each action the sequence takes, one per value. */
    capLines: { actions: LinkedInAction[]; value: number }[];
  };
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
  /** The simulator's own SVG picture (asked with `?picture=svg`). */
  picture?: string;
};

/** Mailboxes in the chart: told apart by the legend's words, these only help the eye. */
const MAILBOX_COLOURS = [
  COLOURS.sent,
  COLOURS.replied,
  COLOURS.unsubscribed,
  COLOURS.complaint,
  COLOURS.exhausted,
];

type LinkedInAction = 'invitation' | 'message' | 'profile_visit';

/** The names of LinkedIn actions in the page. */
const ACTION_NAME: Record<LinkedInAction, string> = {
  invitation: 'invitation',
  message: 'message',
  profile_visit: 'profile visit',
};

function hours(n: number): string {
  return `${n.toLocaleString('en', { maximumFractionDigits: 1 })} h`;
}

/**
 * A bar chart of counts per day stacked by series, with caps as dashed lines. Each line
 * has a stack of its own, or Chart.js would pile the lines up as it does the bars.
 */
function stackedPerDay(
  days: string[],
  caps: { label: string; value: number }[],
  series: { label: string; data: number[]; colour: string }[],
  yTitle: string,
): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels: days,
      datasets: [
        ...caps.map((c, i) => ({
          type: 'line' as const,
          label: `${c.label} (${c.value})`,
          data: days.map(() => c.value),
          borderColor: COLOURS.threshold,
          borderDash: [6, 4],
          pointRadius: 0,
          fill: false,
          stack: `cap-${i}`,
        })),
        ...series.map((s) => ({
          type: 'bar' as const,
          label: s.label,
          data: s.data,
          backgroundColor: s.colour,
          stack: 'sends',
        })),
      ],
    },
    options: {
      plugins: { legend: { position: 'bottom' } },
      scales: {
        x: { stacked: true },
        y: { stacked: true, beginAtZero: true, title: { display: true, text: yTitle } },
      },
    },
  };
}

/** The report of a dry run: sends per day by mailbox against the caps, the funnel, the domains, the delays and what binds. */
export function SimulationView({ report }: { report: SimulationReport }) {
  const { summary, binding, delays } = report;
  // Sends per day stacked by mailbox, with the sum of the daily caps as a line: the
  // simulator's SVG picture (shown above it), drawn by Chart.js from the JSON with tooltips.
  const config = useMemo(
    () =>
      stackedPerDay(
        report.days.map((d) => d.date),
        [{ label: 'Daily caps', value: report.dailyCap }],
        report.mailboxes.map((m, i) => ({
          label: m.id,
          data: report.days.map((d) => d.byMailbox[m.id] ?? 0),
          colour: MAILBOX_COLOURS[i % MAILBOX_COLOURS.length] as string,
        })),
        'Sends per day',
      ),
    [report],
  );
  // LinkedIn actions per day stacked by account, with their caps per action as lines: the
  // picture's second panel.
  const capLines = (report.linkedin?.capLines ?? []).map((line) => ({
    label: `LinkedIn ${line.actions.map((a) => ACTION_NAME[a]).join(', ')} caps`,
    value: line.value,
  }));
  const accounts = report.linkedin?.accounts ?? [];
  const linkedInConfig = useMemo(
    () =>
      stackedPerDay(
        report.days.map((d) => d.date),
        capLines,
        accounts.map((a, i) => ({
          label: a.id,
          data: report.days.map((d) => d.byLinkedInAccount?.[a.id] ?? 0),
          colour: MAILBOX_COLOURS[(report.mailboxes.length + i) % MAILBOX_COLOURS.length] as string,
        })),
        'LinkedIn actions per day',
      ),
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
      {report.picture && (
        // The simulator's picture as the CLI writes it, as an image: an <img> never runs what an
        // SVG holds, so the CSP stays strict (img-src allows data:).
        <figure class="sim-picture" data-field="picture">
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(report.picture)}`}
            alt={`The simulator's picture: sends per day stacked by mailbox (${report.mailboxes.map((m) => m.id).join(', ')}), with the daily caps of ${report.dailyCap} as a dashed line${report.linkedin ? ', and LinkedIn actions per day by account with their caps' : ''}`}
          />
          <figcaption>
            The simulator's picture, as <code>touchbase simulate --svg</code> draws it; the chart below draws
            the same numbers.
          </figcaption>
        </figure>
      )}
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

      {report.linkedin && (
        <section aria-labelledby="sim-linkedin-h" data-field="linkedin">
          <h3 id="sim-linkedin-h">LinkedIn actions per day</h3>
          <ChartView
            config={linkedInConfig}
            label={`Stacked bar chart of the LinkedIn actions of each of ${accounts.length} LinkedIn accounts on each of ${report.days.length} days, with the accounts' daily caps as lines: ${capLines.map((c) => `${c.label} ${c.value}`).join('; ')}; the tables below have the numbers`}
          />
          <Table
            caption="LinkedIn accounts and their daily caps"
            columns={[
              'Account',
              ...['Invitations', 'Messages', 'Profile visits'].map(num),
              ...['Invitations a day', 'Invitations a week', 'Messages a day', 'Visits a day'].map(num),
            ]}
          >
            {accounts.map((a) => (
              <tr key={a.id} data-account={a.id}>
                <th scope="row">{a.id}</th>
                <td class="num" data-metric="invitations">
                  {count(a.sends.invitation)}
                </td>
                <td class="num" data-metric="messages">
                  {count(a.sends.message)}
                </td>
                <td class="num" data-metric="profileVisits">
                  {count(a.sends.profile_visit)}
                </td>
                <td class="num" data-cap="invitationsPerDay">
                  {count(a.invitationsPerDay)}
                </td>
                <td class="num" data-cap="invitationsPerWeek">
                  {count(a.invitationsPerWeek)}
                </td>
                <td class="num" data-cap="messagesPerDay">
                  {count(a.messagesPerDay)}
                </td>
                <td class="num" data-cap="profileVisitsPerDay">
                  {count(a.profileVisitsPerDay)}
                </td>
              </tr>
            ))}
          </Table>
          <details>
            <summary>LinkedIn actions per day as a table</summary>
            <Table
              caption="LinkedIn actions per day and account"
              columns={['Day (UTC)', ...accounts.map((a) => num(a.id))]}
            >
              {report.days.map((d) => (
                <tr key={d.date} data-day={d.date}>
                  <th scope="row">{d.date}</th>
                  {accounts.map((a) => (
                    <td class="num" key={a.id} data-account={a.id}>
                      {count(d.byLinkedInAccount?.[a.id] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </Table>
          </details>
        </section>
      )}

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
