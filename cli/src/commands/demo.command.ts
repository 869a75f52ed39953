import { createApiKey, revokeApiKey } from '@touchbase/api';
import { assertDatabaseReachable } from '@touchbase/db';
import { assertRedisReachable } from '@touchbase/queues';
import type { Config } from '@touchbase/runtime';
import type { Logger } from '@touchbase/telemetry';
import { type Funnel, finished, LEGEND, progressLine, summaryLines } from './demo-report.js';
import { type DemoState, resetDemoState } from './demo-state.js';
import { type NodeFunnel, nodeLine, nodeSummary, startTwoChannel } from './demo-two-channel.js';
import { startSystem } from './start.command.js';

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Alan', 'Radia'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay'];
const STEPS = [
  {
    subject: 'Quick question, {{firstName|there}}',
    body: 'Hi {{firstName|there}}, does {{company|your team}} still plan its outbound by hand?',
    wait: '2d',
  },
  {
    subject: 'Following up, {{firstName|there}}',
    body: 'Following up on my note, {{firstName|there}}.',
    wait: '3d',
  },
  {
    subject: 'One idea for {{company|your team}}',
    body: 'One last idea for {{company|your team}}.',
    wait: '4d',
  },
  { subject: 'Should I stop writing?', body: 'Closing the loop. Should I stop writing?', wait: '2d' },
];

/** How the demo runs: how many prospects, whether it stays up, where its state and logs go. */
export type DemoOptions = {
  count: number;
  keep: boolean;
  state: DemoState;
  /** Where the services' logs go (a file), so they never cut into the demo's lines. */
  logger: Logger;
  logPath: string;
  print: (line: string) => void;
};

/**
 * The demo: starts the whole system on the sandbox, on a database and Redis prefix
 * of its own created fresh, creates a mailbox, a 4-step sequence and `count`
 * prospects through the REST API, enrolls them, and a two-channel campaign (a
 * graph: LinkedIn, then LinkedIn or e-mail) for half as many more, prints a line each time the
 * funnel changes while the campaign runs in compressed time, and a summary once
 * every enrollment has ended. With `keep` the system stays up until SIGINT/SIGTERM.
 */
export async function runDemo(config: Config, opts: DemoOptions): Promise<number> {
  const { print } = opts;
  await assertRedisReachable(config.REDIS_URL);
  await assertDatabaseReachable(config.DATABASE_URL, true);
  await resetDemoState(opts.state, config.REDIS_URL);
  const db = new URL(config.DATABASE_URL);
  print(
    `touchbase demo: database ${db.pathname.slice(1)} on ${db.host}, Redis prefix ${config.REDIS_PREFIX} (both emptied at each run); service logs in ${opts.logPath}`,
  );
  const system = await startSystem(config, { pacingMs: 20, logger: opts.logger });
  // From here on SIGINT/SIGTERM (Ctrl-C, or a kill of npm's pid, which npm passes on)
  // shut every service down in order and free the ports.
  system.rt.shutdown.onSignals();
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
    address: 'sdr@demo-sender.example',
    windowDays: [],
  });
  const sequence = await call('POST', '/v1/sequences', { name: 'Demo campaign', steps: STEPS });
  const prospects = Array.from({ length: opts.count }, (_, i) => ({
    email: `prospect-${i}@demo-prospects.example`,
    firstName: FIRST[i % FIRST.length],
    company: COMPANIES[i % COMPANIES.length],
  }));
  const created = (await call('POST', '/v1/prospects', { prospects })) as { prospects: { id: string }[] };
  const enrolled = await call('POST', '/v1/enrollments', {
    sequenceId: sequence.id,
    mailboxId: mailbox.id,
    prospectIds: created.prospects.map((p) => p.id),
  });
  const dayMs = 86_400_000 / config.TIME_SCALE;
  print(
    `enrolled ${(enrolled.enrolled as unknown[]).length} prospects in "${String(sequence.name)}": ${STEPS.length} e-mails, waits ${STEPS.map((s) => s.wait).join(', ')}; a simulated day lasts ${(dayMs / 1000).toFixed(dayMs < 10_000 ? 1 : 0)} s`,
  );
  const twoChannel = await startTwoChannel(call, String(mailbox.id), Math.max(1, Math.round(opts.count / 2)));
  print(
    `enrolled ${twoChannel.enrolled} prospects in "Two-channel campaign": connect on LinkedIn; accepted → message there; not accepted within 7 days → e-mail; a reply on either channel ends it`,
  );
  print(LEGEND);
  const started = Date.now();
  let last = '';
  let lastNodes = '';
  let funnel: Funnel;
  let nodes: NodeFunnel;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    funnel = (await call('GET', `/v1/stats?sequenceId=${sequence.id}`)) as Funnel;
    nodes = (await call('GET', `/v1/stats?sequenceId=${twoChannel.id}`)) as NodeFunnel;
    const line = progressLine(funnel, STEPS.length);
    const nodeProgress = nodeLine(nodes);
    const day = ((Date.now() - started) / dayMs).toFixed(0).padStart(3);
    if (line !== last) print(`[day ${day}] ${line}`);
    if (nodeProgress !== lastNodes) print(`[day ${day}] ${nodeProgress}`);
    last = line;
    lastNodes = nodeProgress;
    if (finished(funnel) && finished(nodes)) break;
  }
  const elapsedMs = Date.now() - started;
  for (const l of summaryLines(funnel, { elapsedMs, timeScale: config.TIME_SCALE, steps: STEPS.length }))
    print(l);
  for (const l of nodeSummary(nodes)) print(l);
  print(await domainHealthLine(call, config.DOMAIN_HEALTH_BOUNCE_THRESHOLD));
  if (demoKey)
    await revokeApiKey({ repos: system.rt.repos }, { idOrName: demoKey.apiKey.id, actor: 'cli:demo' });
  if (opts.keep) {
    print(
      `still running (--keep): API ${apiUrl} (OpenAPI at /docs, queues at /admin/queues, domain health at /v1/domains/health), ingest ${system.ingestUrl}, sandbox ${system.sandbox.url}; Ctrl-C stops it`,
    );
    print(
      `operator console: ${apiUrl}/console ${consoleSignIn(config.ADMIN_TOKEN !== undefined, demoKey !== undefined)}`,
    );
    return new Promise<number>(() => {});
  }
  await system.rt.shutdown.run();
  return 0;
}

/** What the domain guard saw on its last check (it runs on the compressed clock too). */
async function domainHealthLine(
  call: (m: string, p: string) => Promise<Record<string, unknown>>,
  threshold: number,
) {
  const { account } = (await call('GET', '/v1/domains/health')) as {
    account: { level: string; figures: Record<string, number>; checkedAt: string | null };
  };
  if (!account.checkedAt) return '  domain health: not checked yet';
  const f = account.figures;
  const rate = typeof f.bounceRate === 'number' ? `${(100 * f.bounceRate).toFixed(1)}%` : '?';
  return `  domain health (GET /v1/domains/health): ${account.level}, ${f.sends ?? '?'} sends, bounce rate ${rate} (the guard pauses a domain above ${(100 * threshold).toFixed(0)}%)`;
}

/** How a person gets into the console the demo points at. */
function consoleSignIn(adminToken: boolean, keysExist: boolean): string {
  if (adminToken) return '(sign in with ADMIN_TOKEN)';
  if (keysExist) return '(sign in with a key: touchbase keys create --name NAME --scope admin)';
  return '(open: no key exists yet and the API listens on loopback)';
}
