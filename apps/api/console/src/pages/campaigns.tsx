import type { ChartConfiguration } from 'chart.js/auto';
import { useMemo } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, type Page, query } from '../api.js';
import { ChartView, COLOURS } from '../chart.js';
import { count, percent } from '../format.js';
import { num, Show, Table, useLoad } from '../ui.js';

type Sequence = { id: string; name: string; status?: string; createdAt?: string };

type FunnelRow = {
  step?: number;
  variant?: number;
  enrolled?: number;
  sent: number;
  replied: number;
  positiveReplies: number;
  bounced: number;
  unsubscribed: number;
  exhausted: number;
  replyRate: number | null;
  positiveReplyRate: number | null;
  bounceRate: number | null;
  unsubscribeRate: number | null;
};

type Funnel = { sequenceId: string; total: FunnelRow | null; steps: FunnelRow[]; variants: FunnelRow[] };

const METRICS = [
  ['sent', 'Sent'],
  ['replied', 'Replied'],
  ['positiveReplies', 'Positive'],
  ['bounced', 'Bounced'],
  ['unsubscribed', 'Unsubscribed'],
  ['exhausted', 'Exhausted'],
] as const;

const RATES = [
  ['replyRate', 'Reply rate'],
  ['positiveReplyRate', 'Positive rate'],
  ['bounceRate', 'Bounce rate'],
  ['unsubscribeRate', 'Unsubscribe rate'],
] as const;

const CHART_COLOURS = [
  COLOURS.sent,
  COLOURS.replied,
  COLOURS.positive,
  COLOURS.bounced,
  COLOURS.unsubscribed,
  COLOURS.exhausted,
];

/** The campaigns (sequences): pick one to see its funnel. */
export function CampaignsPage() {
  const sequences = useLoad(() => api.get<Page<Sequence>>('/v1/sequences?limit=500'), []);
  return (
    <>
      <h1>Campaigns</h1>
      <Show of={sequences}>
        {(page) =>
          page.items.length === 0 ? (
            <p>No sequence yet: create one with POST /v1/sequences.</p>
          ) : (
            <nav aria-label="Sequences">
              <ul class="cards">
                {page.items.map((s) => (
                  <li key={s.id}>
                    <a href={`/console/campaigns/${s.id}`}>{s.name}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )
        }
      </Show>
    </>
  );
}

/** One sequence's funnel per step and per A/B variant, as a chart and tables, for a range of enrollment dates. */
export function CampaignPage() {
  const { params } = useRoute();
  const { query: q, path, route } = useLocation();
  const id = params.id ?? '';
  const from = q.from ?? '';
  const to = q.to ?? '';
  const sequence = useLoad(() => api.get<Sequence>(`/v1/sequences/${id}`), [id]);
  const funnel = useLoad(
    () =>
      api.get<Funnel>(
        `/v1/sequences/${id}/funnel${query({
          from: from ? new Date(`${from}T00:00:00`).toISOString() : undefined,
          // The whole last day: `to` is exclusive.
          to: to ? new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined,
        })}`,
      ),
    [id, from, to],
  );

  const filter = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    route(`${path}${query({ from: String(data.get('from') ?? ''), to: String(data.get('to') ?? '') })}`);
  };

  return (
    <>
      <p class="crumbs">
        <a href="/console/campaigns">Campaigns</a>
      </p>
      <h1>{sequence.data?.name ?? 'Campaign'}</h1>
      <CampaignTabs id={id} current="funnel" />
      {/* Uncontrolled fields (defaultValue), keyed by the URL's range: what a person types is
          never reset by a re-render when a read finishes, and a new range starts afresh. */}
      <form class="inline" onSubmit={filter} aria-label="Date range" key={`${from}|${to}`}>
        <label for="from">Enrolled from</label>
        <input id="from" name="from" type="date" defaultValue={from} />
        <label for="to">to</label>
        <input id="to" name="to" type="date" defaultValue={to} />
        <button type="submit">Apply</button>
        {(from || to) && <a href={path}>All dates</a>}
      </form>
      <Show of={funnel}>{(f) => <FunnelView funnel={f} />}</Show>
    </>
  );
}

/** The views of one campaign, each its own address: its funnel, and a dry run of it. */
export function CampaignTabs(props: { id: string; current: 'funnel' | 'simulate' }) {
  const tabs = [
    ['funnel', `/console/campaigns/${props.id}`, 'Funnel'],
    ['simulate', `/console/campaigns/${props.id}/simulate`, 'Simulate'],
  ] as const;
  return (
    <nav aria-label="Campaign views" class="tabs">
      <ul>
        {tabs.map(([key, href, label]) => (
          <li key={key}>
            <a href={href} aria-current={props.current === key ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function FunnelView({ funnel }: { funnel: Funnel }) {
  const steps = [...funnel.steps].sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
  const variants = [...funnel.variants].sort(
    (a, b) => (a.step ?? 0) - (b.step ?? 0) || (a.variant ?? 0) - (b.variant ?? 0),
  );
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: steps.map((s) => `Step ${s.step}`),
        datasets: METRICS.map(([key, label], i) => ({
          label,
          data: steps.map((s) => s[key]),
          backgroundColor: CHART_COLOURS[i] ?? COLOURS.sent,
        })),
      },
      options: { plugins: { legend: { position: 'bottom' } }, scales: { y: { beginAtZero: true } } },
    }),
    [funnel],
  );
  const variantLabel = (r: FunnelRow) =>
    `Step ${r.step}, variant ${String.fromCharCode(65 + (r.variant ?? 0))}`;
  // A/B variants are compared by their rates: each variant reached a different number of people.
  const variantConfig = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: variants.map(variantLabel),
        datasets: [
          ['replyRate', 'Reply rate (%)', COLOURS.replied],
          ['positiveReplyRate', 'Positive rate (%)', COLOURS.positive],
          ['bounceRate', 'Bounce rate (%)', COLOURS.bounced],
          ['unsubscribeRate', 'Unsubscribe rate (%)', COLOURS.unsubscribed],
        ].map(([key, label, colour]) => ({
          label: label as string,
          data: variants.map((v) => {
            const r = v[key as (typeof RATES)[number][0]];
            return r === null ? null : r * 100;
          }),
          backgroundColor: colour as string,
        })),
      },
      options: {
        plugins: { legend: { position: 'bottom' } },
        scales: { y: { beginAtZero: true, title: { display: true, text: '% of sent' } } },
      },
    }),
    [funnel],
  );
  const total = funnel.total;
  return (
    <>
      <section aria-labelledby="total-h">
        <h2 id="total-h">Whole sequence</h2>
        {total ? (
          <dl class="figures" aria-label="Totals">
            <div>
              <dt>Enrolled</dt>
              <dd data-metric="enrolled">{count(total.enrolled)}</dd>
            </div>
            {METRICS.map(([key, label]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd data-metric={key}>{count(total[key])}</dd>
              </div>
            ))}
            {RATES.map(([key, label]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd data-metric={key}>{percent(total[key])}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p>No enrollment in this range.</p>
        )}
      </section>
      <section aria-labelledby="steps-h">
        <h2 id="steps-h">Per step</h2>
        <ChartView
          config={config}
          label={`Bar chart of sent, replied, positive, bounced, unsubscribed and exhausted for each of ${steps.length} steps; the table below has the numbers`}
        />
        <FunnelTable caption="Funnel per step" rows={steps} head={(r) => `Step ${r.step}`} />
      </section>
      <section aria-labelledby="variants-h">
        <h2 id="variants-h">Per A/B variant</h2>
        <ChartView
          config={variantConfig}
          height={240}
          label={`Bar chart of the reply, positive, bounce and unsubscribe rates of each of ${variants.length} step variants; the table below has the numbers`}
        />
        <FunnelTable caption="Funnel per step and variant" rows={variants} head={variantLabel} />
      </section>
    </>
  );
}

function FunnelTable(props: { caption: string; rows: FunnelRow[]; head: (r: FunnelRow) => string }) {
  return (
    <Table
      caption={props.caption}
      columns={['Node', ...METRICS.map(([, label]) => num(label)), ...RATES.map(([, label]) => num(label))]}
    >
      {props.rows.length === 0 && (
        <tr>
          <td colSpan={METRICS.length + RATES.length + 1}>Nothing sent yet.</td>
        </tr>
      )}
      {props.rows.map((r) => (
        <tr key={`${r.step}-${r.variant}`} data-step={r.step} data-variant={r.variant}>
          <th scope="row">{props.head(r)}</th>
          {METRICS.map(([key]) => (
            <td key={key} class="num" data-metric={key}>
              {count(r[key])}
            </td>
          ))}
          {RATES.map(([key]) => (
            <td key={key} class="num" data-metric={key}>
              {percent(r[key])}
            </td>
          ))}
        </tr>
      ))}
    </Table>
  );
}
