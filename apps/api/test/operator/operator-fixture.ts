import type { ApiFixture } from '../support/api-fixture.js';

/** Sends a request with a key, JSON in and out. */
export async function call(
  f: ApiFixture,
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const res = await f.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON answers loosely
  return { status: res.statusCode, body: res.body ? (res.json() as Record<string, any>) : {} };
}

/** A sequence (two steps, one day apart) and a sandbox mailbox, through the API. */
export async function sequenceAndMailbox(f: ApiFixture, key: string, label: string) {
  const seq = await call(f, key, 'POST', '/v1/sequences', {
    name: `seq ${label}`,
    steps: [
      { subject: 'Hi {{firstName}}', body: 'b', wait: '1d' },
      { subject: 'again', body: 'b', wait: '2d' },
    ],
  });
  const mb = await call(f, key, 'POST', '/v1/mailboxes', {
    provider: 'sandbox',
    address: `sdr@${label}.example`,
  });
  return { sequenceId: seq.body.id as string, mailboxId: mb.body.id as string };
}

/**
 * Opts a sequence out of the contact policies that keep a person to one sequence at
 * a time (exclusivity, cooldown), for tests that enroll one person in several.
 */
export async function allowSharedPeople(f: ApiFixture, key: string, sequenceId: string): Promise<void> {
  const r = await call(f, key, 'PATCH', `/v1/sequences/${sequenceId}/policies`, {
    contact: { exclusive: false, cooldownDays: 0 },
  });
  if (r.status !== 200) throw new Error(`policies: ${JSON.stringify(r.body)}`);
}

/** Prospects enrolled in the sequence: their ids and enrollment ids, in the order given. */
export async function enrolled(
  f: ApiFixture,
  key: string,
  at: { sequenceId: string; mailboxId: string },
  prospects: { email: string; firstName?: string; lastName?: string }[],
) {
  const ps = (await call(f, key, 'POST', '/v1/prospects', { prospects })).body.prospects as {
    id: string;
    email: string;
  }[];
  const res = await call(f, key, 'POST', '/v1/enrollments', { ...at, prospectIds: ps.map((p) => p.id) });
  const byProspect = new Map(
    (res.body.enrolled as { id: string; prospectId: string }[]).map((e) => [e.prospectId, e.id]),
  );
  return ps.map((p) => ({ prospectId: p.id, email: p.email, enrollmentId: byProspect.get(p.id)! }));
}

/** Whether the touch job of an enrollment's first step exists in Redis. */
export async function hasJob(f: ApiFixture, enrollmentId: string, step = 1): Promise<boolean> {
  return (await f.touchQueue.existing([`${enrollmentId}-${step}`])).size === 1;
}
