import type { Funnel } from './demo-report.js';

/** The demo's second campaign: connect on LinkedIn; accepted → a message there; else, after 7 days, an e-mail. */
export const TWO_CHANNEL_GRAPH = {
  nodes: [
    { id: 'connect', action: 'linkedin_connect', note: 'Hi {{firstName|there}}, glad to connect.' },
    { id: 'dm', action: 'linkedin_message', body: 'Thanks for connecting, {{firstName|there}}!' },
    {
      id: 'mail',
      action: 'email',
      subject: 'Hello from LinkedIn, {{firstName|there}}',
      body: 'I tried to reach you on LinkedIn; does {{company|your team}} plan its outbound by hand?',
    },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'connect', to: 'dm', trigger: 'connection_accepted' },
    { from: 'connect', to: 'mail', trigger: 'not_accepted', wait: '7d' },
    { from: 'dm', to: 'end', trigger: 'no_reply', wait: '3d' },
    { from: 'mail', to: 'end', trigger: 'no_reply', wait: '3d' },
  ],
};

/** `GET /v1/stats?sequenceId=` of a graph sequence: the funnel and its rows per node. */
export type NodeFunnel = Funnel & {
  byNode?: {
    node: string | null;
    action: string | null;
    reached: number;
    sent: number;
    failed: number;
    repliedAfter: number;
  }[];
};

type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/**
 * Creates the two-channel campaign through the REST API: a pool with the demo's
 * mailbox and a LinkedIn account on the sandbox's LinkedIn, the graph sequence,
 * `count` prospects with a LinkedIn profile, enrolled.
 */
export async function startTwoChannel(
  call: Call,
  mailboxId: string,
  count: number,
): Promise<{ id: string; enrolled: number }> {
  const pool = await call('POST', '/v1/mailbox-pools', { name: 'Demo two-channel', mailboxIds: [mailboxId] });
  await call('POST', '/v1/linkedin-accounts', {
    provider: 'sandbox',
    providerAccountId: `demo-sdr-${Date.now().toString(36)}`,
    name: 'Demo SDR',
    poolIds: [pool.id],
  });
  const sequence = await call('POST', '/v1/sequences', {
    name: 'Two-channel campaign',
    graph: TWO_CHANNEL_GRAPH,
    mailboxPoolId: pool.id,
  });
  const prospects = Array.from({ length: count }, (_, i) => ({
    email: `linkedin-prospect-${i}@demo-prospects.example`,
    linkedinUrl: `https://www.linkedin.com/in/demo-prospect-${i}/`,
    firstName: ['Ada', 'Grace', 'Linus', 'Radia'][i % 4],
    company: ['Acme', 'Globex', 'Hooli'][i % 3],
  }));
  const created = (await call('POST', '/v1/prospects', { prospects })) as { prospects: { id: string }[] };
  const enrolled = await call('POST', '/v1/enrollments', {
    sequenceId: sequence.id,
    mailboxId,
    prospectIds: created.prospects.map((p) => p.id),
  });
  return { id: String(sequence.id), enrolled: (enrolled.enrolled as unknown[]).length };
}

/** One progress line of the two-channel campaign: how many reached each node, and the statuses. */
export function nodeLine(f: NodeFunnel): string {
  const s = (k: string) => f.byStatus[k] ?? 0;
  const nodes = (f.byNode ?? []).map((n) => `${n.node} ${n.sent}`).join(', ');
  return `two-channel: ${nodes || 'nothing sent yet'}  active ${s('active')}  replied ${s('replied')}  exhausted ${s('exhausted')}`;
}

/** The closing lines of the two-channel campaign: its funnel per node. */
export function nodeSummary(f: NodeFunnel): string[] {
  return [
    `  two-channel campaign (${f.enrolled} prospects), funnel per node (GET /v1/stats?sequenceId=…, byNode):`,
    ...(f.byNode ?? []).map(
      (n) =>
        `    ${String(n.node).padEnd(8)} ${String(n.action).padEnd(17)} reached ${n.reached}, done ${n.sent}, failed ${n.failed}, replied after ${n.repliedAfter}`,
    ),
  ];
}
