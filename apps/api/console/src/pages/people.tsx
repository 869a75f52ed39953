import { useLocation, useRoute } from 'preact-iso';
import { api, type Page, query } from '../api.js';
import { count, waitingText } from '../format.js';
import { Show, Table, useLoad } from '../ui.js';

export type Prospect = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  emailStatus?: string;
};

export type Enrollment = {
  id: string;
  prospectId: string;
  sequenceId: string;
  status: string;
  currentStep: number;
  nextTouchAt?: string | null;
  stopReason?: string | null;
  waiting?: { reason: string; until: string | null } | null;
};

const fullName = (p: Prospect) => [p.firstName, p.lastName].filter(Boolean).join(' ') || '–';

/** People: search by address, name or company; and the live enrollments by why they wait. */
export function PeoplePage() {
  const { query: q, path, route } = useLocation();
  const term = q.q ?? '';
  const results = useLoad(
    () =>
      term.length >= 2
        ? api.get<Page<Prospect>>(`/v1/prospects${query({ q: term, limit: 50 })}`)
        : Promise.resolve(null),
    [term],
  );
  const summary = useLoad(
    () => api.get<{ total: number; byReason: Record<string, number> }>('/v1/enrollments/waiting/summary'),
    [],
  );
  const search = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    route(`${path}${query({ q: String(data.get('q') ?? '').trim() })}`);
  };
  return (
    <>
      <h1>People</h1>
      <search>
        {/* Uncontrolled (defaultValue), keyed by the URL's query: typing is never reset by a re-render. */}
        <form class="inline" onSubmit={search} key={term}>
          <label for="q">Search by address, name or company</label>
          <input id="q" name="q" type="search" defaultValue={term} minLength={2} required />
          <button type="submit">Search</button>
        </form>
      </search>
      {term && (
        <Show of={results}>
          {(page) =>
            !page || page.items.length === 0 ? (
              <p role="status">Nobody matches “{term}”.</p>
            ) : (
              <Table caption={<>People matching “{term}”</>} columns={['Address', 'Name', 'Company']}>
                {page.items.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <a href={`/console/people/${p.id}`}>{p.email}</a>
                    </td>
                    <td>{fullName(p)}</td>
                    <td>{p.company ?? '–'}</td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Show>
      )}
      <section aria-labelledby="waiting-h">
        <h2 id="waiting-h">Live enrollments by why they wait</h2>
        <Show of={summary}>{(s) => <WaitingSummary summary={s} />}</Show>
      </section>
    </>
  );
}

function WaitingSummary({ summary }: { summary: { total: number; byReason: Record<string, number> } }) {
  const rows = Object.entries(summary.byReason).sort((a, b) => b[1] - a[1]);
  if (rows.length === 0) return <p>No live enrollment.</p>;
  return (
    <ul class="cards">
      {rows.map(([reason, n]) => (
        <li key={reason}>
          <a href={`/console/waiting/${reason}`}>
            {waitingText(reason)}: <strong>{count(n)}</strong>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The live enrollments waiting for one reason. */
export function WaitingListPage() {
  const { params } = useRoute();
  const reason = params.reason ?? '';
  const list = useLoad(
    () => api.get<Page<Enrollment>>(`/v1/enrollments${query({ waiting: reason, limit: 100 })}`),
    [reason],
  );
  return (
    <>
      <p class="crumbs">
        <a href="/console/people">People</a>
      </p>
      <h1>Waiting: {waitingText(reason)}</h1>
      <Show of={list}>
        {(page) => (
          <Table
            caption={<>Enrollments waiting because: {waitingText(reason)}</>}
            columns={['Enrollment', 'Status', 'Step', 'Until']}
          >
            {page.items.map((e) => (
              <tr key={e.id}>
                <td>
                  <a href={`/console/enrollments/${e.id}`}>{e.id.slice(0, 8)}</a>
                </td>
                <td>{e.status}</td>
                <td>{e.currentStep}</td>
                <td>
                  {e.waiting?.until
                    ? new Date(e.waiting.until).toLocaleString('en-GB')
                    : 'until someone acts'}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Show>
    </>
  );
}

/** One person: who, and their enrollments. */
export function PersonPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const person = useLoad(() => api.get<Prospect>(`/v1/prospects/${id}`), [id]);
  const enrollments = useLoad(
    () => api.get<Page<Enrollment>>(`/v1/enrollments${query({ prospectId: id, limit: 100 })}`),
    [id],
  );
  return (
    <>
      <p class="crumbs">
        <a href="/console/people">People</a>
      </p>
      <Show of={person}>
        {(p) => (
          <>
            <h1>{p.email}</h1>
            <dl class="facts">
              <dt>Name</dt>
              <dd>{fullName(p)}</dd>
              <dt>Company</dt>
              <dd>{p.company ?? '–'}</dd>
              <dt>Address status</dt>
              <dd>{p.emailStatus ?? '–'}</dd>
            </dl>
          </>
        )}
      </Show>
      <h2>Enrollments</h2>
      <Show of={enrollments}>
        {(page) =>
          page.items.length === 0 ? (
            <p>Not enrolled in any sequence.</p>
          ) : (
            <ul class="cards">
              {page.items.map((e) => (
                <li key={e.id}>
                  <a href={`/console/enrollments/${e.id}`}>
                    <span>Enrollment {e.id.slice(0, 8)}</span>: {e.status}, step {e.currentStep}
                  </a>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </>
  );
}
