import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Page } from '../api.js';
import { Show, useLoad } from '../ui.js';
import { CampaignTabs } from './campaigns.js';
import { type SimulationReport, SimulationView } from './simulation-view.js';

type Sequence = { id: string; name: string; mailboxPoolId?: string | null };
type Mailbox = { id: string; address: string; status: string };

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
      setReport(await api.post<SimulationReport>('/v1/simulations?picture=svg', body));
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
