import { createApiKey, revokeApiKey } from '@touchbase/api';
import type { Config } from '@touchbase/runtime';
import { startSystem } from './start.command.js';

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Alan', 'Radia'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay'];

/**
 * The demo: starts the whole system on the sandbox, creates a mailbox, a 4-step
 * sequence and `count` prospects through the REST API, enrolls them, and prints
 * the funnel as the campaign runs in compressed time, until every enrollment ends.
 */
export async function runDemo(
  config: Config,
  opts: { count: number; print: (line: string) => void; keep: boolean },
): Promise<number> {
  const system = await startSystem(config, { pacingMs: 20 });
  const { apiUrl } = system;
  const run = Date.now().toString(36);
  // Without ADMIN_TOKEN the API is open only while no key exists; once keys do, the demo
  // makes a write key of its own for its calls and revokes it when the campaign is over.
  const demoKey =
    !config.ADMIN_TOKEN && (await system.rt.repos.apiKeys.countActive()) > 0
      ? await createApiKey(
          { repos: system.rt.repos },
          { name: `demo-${run}`, scope: 'write', actor: 'cli:demo' },
        )
      : undefined;
  const bearer = config.ADMIN_TOKEN ?? demoKey?.key;
  const headers = {
    'content-type': 'application/json',
    ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(apiUrl + path, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const mailbox = await call('POST', '/v1/mailboxes', {
    provider: 'sandbox',
    address: `sdr-${run}@demo-sender.example`,
    windowDays: [],
  });
  const sequence = await call('POST', '/v1/sequences', {
    name: `Demo ${run}`,
    steps: [
      {
        subject: 'Quick question, {{firstName|there}}',
        body: 'Hi {{firstName|there}}, does {{company|your team}} still ...',
        wait: '2d',
      },
      { subject: 'unused', body: 'Following up on my note, {{firstName|there}}.', wait: '3d' },
      { subject: 'unused', body: 'One last idea for {{company|your team}}.', wait: '4d' },
      { subject: 'unused', body: 'Closing the loop. Should I stop writing?', wait: '2d' },
    ],
  });
  const prospects = Array.from({ length: opts.count }, (_, i) => ({
    email: `prospect-${i}-${run}@demo-prospects.example`,
    firstName: FIRST[i % FIRST.length],
    company: COMPANIES[i % COMPANIES.length],
  }));
  const created = (await call('POST', '/v1/prospects', { prospects })) as { prospects: { id: string }[] };
  const enrolled = await call('POST', '/v1/enrollments', {
    sequenceId: sequence.id,
    mailboxId: mailbox.id,
    prospectIds: created.prospects.map((p) => p.id),
  });
  opts.print(
    `touchbase demo: API ${apiUrl} (OpenAPI at /docs, queues at /admin/queues), TIME_SCALE=${config.TIME_SCALE}`,
  );
  opts.print(
    `enrolled ${(enrolled.enrolled as unknown[]).length} prospects in "${String(sequence.name)}" (4 steps: waits 2d, 3d, 4d, 2d)`,
  );
  const started = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const f = (await call('GET', `/v1/stats?sequenceId=${sequence.id}`)) as {
      enrolled: number;
      byStatus: Record<string, number>;
      sentByStep: Record<string, number>;
    };
    const s = (k: string) => f.byStatus[k] ?? 0;
    const sent = [1, 2, 3, 4].map((i) => f.sentByStep[String(i)] ?? 0).join('/');
    const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(3);
    opts.print(
      `[${seconds}s] enrolled ${f.enrolled}  sent per step ${sent}  active ${s('active')}  replied ${s('replied')}  bounced ${s('bounced')}  exhausted ${s('exhausted')}  paused ${s('paused')}`,
    );
    if (s('active') + s('queued') === 0) break;
  }
  const deliveries = system.sandbox.deliveries().length;
  opts.print(`campaign finished: ${deliveries} deliveries in the sandbox log, every enrollment ended.`);
  if (demoKey)
    await revokeApiKey({ repos: system.rt.repos }, { idOrName: demoKey.apiKey.id, actor: 'cli:demo' });
  if (opts.keep) {
    opts.print('still running (--keep): press Ctrl-C to stop');
    system.rt.shutdown.onSignals();
    return new Promise<number>(() => {});
  }
  await system.rt.shutdown.run();
  return 0;
}
