import { api, type Page } from '../api.js';
import { dateTime } from '../format.js';
import { Badge, ConfirmAction, Show, Table, useLoad } from '../ui.js';

type Alert = {
  id: string;
  kind: string;
  domain: string | null;
  message: string;
  createdAt: string;
  deliveries: { channel: string; status: string; attempts: number }[] | null;
};

type TriageItem = {
  id: string;
  kind: string;
  email: string | null;
  classification: string | null;
  why: string | null;
  receivedAt: string;
};

/** Recent ops alerts, and the replies nobody's enrollment owns, to read and resolve. */
export function AlertsPage() {
  const alerts = useLoad(() => api.get<Page<Alert>>('/v1/alerts?limit=50'), []);
  const triage = useLoad(() => api.get<Page<TriageItem>>('/v1/triage?limit=100'), []);
  return (
    <>
      <h1>Alerts and triage</h1>
      <section aria-labelledby="alerts-h">
        <h2 id="alerts-h">Recent alerts</h2>
        <Show of={alerts}>
          {(page) =>
            page.items.length === 0 ? (
              <p>No alert.</p>
            ) : (
              <Table
                caption="The last 50 alerts, newest first"
                columns={['When', 'Kind', 'Domain', 'Message', 'Delivered to']}
              >
                {page.items.map((a) => (
                  <tr key={a.id}>
                    <td>{dateTime(a.createdAt)}</td>
                    <td>{a.kind}</td>
                    <td>{a.domain ?? '–'}</td>
                    <td>{a.message}</td>
                    <td>
                      {(a.deliveries ?? []).map((d) => (
                        <Badge
                          key={d.channel}
                          tone={d.status === 'delivered' ? 'ok' : d.status === 'failed' ? 'bad' : 'warn'}
                        >
                          {d.channel}: {d.status}
                        </Badge>
                      ))}
                    </td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Show>
      </section>
      <section aria-labelledby="triage-h">
        <h2 id="triage-h">Unmatched replies to resolve</h2>
        <Show of={triage}>
          {(page) =>
            page.items.length === 0 ? (
              <p>Nothing to triage.</p>
            ) : (
              <Table
                caption="Replies from unknown senders and cold inbounds, not yet handled"
                columns={['Received', 'From', 'Kind', 'Class', 'Why', 'Action']}
              >
                {page.items.map((t) => (
                  <tr key={t.id}>
                    <td>{dateTime(t.receivedAt)}</td>
                    <td>{t.email ?? '–'}</td>
                    <td>{t.kind.replace('_', ' ')}</td>
                    <td>{t.classification ?? '–'}</td>
                    <td>{t.why ?? '–'}</td>
                    <td>
                      <ConfirmAction
                        label="Resolve"
                        title="Mark this reply handled"
                        description={`The reply from ${t.email ?? 'an unknown sender'} leaves this list; the audit log keeps who did it.`}
                        run={() => api.post(`/v1/triage/${t.id}/resolve`)}
                        done={triage.reload}
                      />
                    </td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Show>
      </section>
    </>
  );
}
