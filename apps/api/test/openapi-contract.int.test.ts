import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture, documentedOperations } from './support/api-fixture.js';

const TOKEN = 'contract-admin-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };
const GUARD_STATUSES = ['400', '401', '403', '429', '503'];

type Operation = {
  summary?: string;
  description?: string;
  security?: unknown[];
  'x-scope'?: string;
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/**
 * The contract: the OpenAPI 3.1 document generated from the zod schemas is valid
 * for an independent validator, every operation (those added later too) says what
 * it does, who may call it and what each status answers, and real answers match
 * what it declares.
 */
describe('the OpenAPI contract', () => {
  let f: ApiFixture;
  let doc: Doc;
  let resolved: Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  /** The declared schema of an answer, by status (or its class, `4XX`) and media type. */
  const declared = (path: string, method: string, status: number, type: string) => {
    const responses = resolved.paths[path]?.[method.toLowerCase()]?.responses ?? {};
    const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    return response?.content?.[type.split(';')[0]!]?.schema;
  };
  const expectConforms = (
    path: string,
    method: string,
    res: { statusCode: number; headers: Record<string, unknown>; body: string },
  ) => {
    const type = String(res.headers['content-type'] ?? '');
    const schema = declared(path, method, res.statusCode, type);
    const what = `${method} ${path} ${res.statusCode} ${type}`;
    expect(schema, `${what}: no schema declared`).toBeDefined();
    const validate = ajv.compile(schema!);
    expect(
      validate(JSON.parse(res.body)),
      `${what}: ${ajv.errorsText(validate.errors)} in ${res.body.slice(0, 300)}`,
    ).toBe(true);
  };

  beforeAll(async () => {
    f = await apiFixture('openapi_contract', { adminToken: TOKEN });
    doc = structuredClone(f.app.swagger()) as Doc;
    // Shared shapes are components/schemas ($ref): answers are checked against them resolved.
    resolved = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as Doc;
  });
  afterAll(async () => {
    await f?.close();
  });

  it('is OpenAPI 3.1 and valid for an independent validator (@apidevtools/swagger-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('states each shape several routes answer once, as a component the routes refer to', () => {
    const components = (doc as Doc & { components?: { schemas?: Record<string, unknown> } }).components;
    const shared = [
      'Mailbox',
      'MailboxPool',
      'Sequence',
      'SequenceVersion',
      'Enrollment',
      'Prospect',
      'FunnelRow',
    ];
    expect(Object.keys(components?.schemas ?? {})).toEqual(expect.arrayContaining(shared));
    const text = JSON.stringify(doc.paths);
    for (const id of shared) expect(text, id).toContain(`"#/components/schemas/${id}"`);
  });

  it('every /v1 operation has a summary, a description, its security and a schema for each answer', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ what: `${method.toUpperCase()} ${path}`, path, op })),
    );
    const v1 = ops.filter((o) => o.path.startsWith('/v1/'));
    expect(v1.length).toBeGreaterThan(30);
    for (const { what, op } of v1) {
      expect(op.summary?.trim(), `${what}: summary`).toBeTruthy();
      expect(op.description?.trim(), `${what}: description`).toBeTruthy();
      expect(op.security?.length, `${what}: security`).toBeGreaterThan(0);
      expect(op['x-scope'], `${what}: x-scope`).toBeDefined();
      const responses = op.responses ?? {};
      const success = Object.keys(responses).filter((s) => s.startsWith('2'));
      expect(success.length, `${what}: a 2xx response`).toBeGreaterThan(0);
      for (const status of success) {
        const schema = responses[status]?.content?.['application/json']?.schema;
        // 204: no content, and so no schema; every other success states its body.
        if (status === '204') expect(schema, `${what} ${status}: no body`).toBeUndefined();
        else expect(schema, `${what} ${status}`).toBeDefined();
      }
      for (const status of GUARD_STATUSES)
        expect(
          responses[status]?.content?.['application/problem+json']?.schema,
          `${what} ${status}`,
        ).toBeDefined();
    }
  });

  it('every success schema is closed: each object names its fields, free-form maps are records', () => {
    const loose: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) {
        node.forEach((n, i) => {
          walk(n, `${at}[${i}]`);
        });
        return;
      }
      if (node === null || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      const isObject = n.type === 'object' || 'properties' in n;
      // A z.object is `additionalProperties: false`; a z.record has `propertyNames` and no properties.
      if (isObject && n.additionalProperties !== false && !(n.propertyNames && !n.properties)) loose.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}.${k}`);
    };
    for (const [path, ops] of Object.entries(resolved.paths))
      for (const [method, op] of Object.entries(ops))
        for (const [status, r] of Object.entries(op.responses ?? {}))
          if (status.startsWith('2'))
            walk(r.content?.['application/json']?.schema, `${method} ${path} ${status}`);
    expect(loose).toEqual([]);
  });

  it('every operation answers its documented success, and nothing the handler gave is dropped', async () => {
    const call = async (method: string, url: string, payload?: object | string, type?: string) => {
      const res = await f.app.inject({
        method: method as 'GET',
        url,
        headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
        ...(payload === undefined ? {} : { payload }),
      });
      return { res, body: res.body ? res.json() : undefined };
    };
    /** A call of the setup: it must succeed; its body. */
    const make = async (method: string, url: string, payload?: object) => {
      const { res, body } = await call(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 500)}`).toBeLessThan(300);
      return body;
    };
    // The world the calls act on: made through the API, as a client would.
    const mailbox = await make('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'sdr@contract.example',
    });
    const member = await make('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'two@contract.example',
    });
    const pool = await make('POST', '/v1/mailbox-pools', { name: 'kept', mailboxIds: [member.id] });
    const spare = await make('POST', '/v1/mailbox-pools', { name: 'spare', mailboxIds: [member.id] });
    const steps = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        subject: `Hi ${i + 1}`,
        body: 'Hello {{firstName}}',
        wait: '2d',
        ...(i === 0 ? { variants: [{ subject: 'Hey', body: 'Hi {{firstName}}' }] } : {}),
      }));
    const sequence = await make('POST', '/v1/sequences', { name: 's', steps: steps(2) });
    // A version given as a graph: its `steps` are empty.
    const graphed = await make('POST', '/v1/sequences', {
      name: 'g',
      graph: {
        nodes: [
          { id: 'hello', action: 'email', subject: 'Hi', body: 'Hello {{firstName}}' },
          { id: 'done', action: 'end' },
        ],
        edges: [{ from: 'hello', to: 'done', trigger: 'no_reply', wait: '2d' }],
      },
    });
    const people = (
      await make('POST', '/v1/prospects', {
        prospects: ['a', 'b', 'c', 'd'].map((n) => ({
          email: `${n}@people.example`,
          firstName: n.toUpperCase(),
        })),
      })
    ).prospects as { id: string }[];
    const [a, b, c, d] = people.map((p) => p.id);
    const enrolled = (
      await make('POST', '/v1/enrollments', {
        sequenceId: sequence.id,
        mailboxId: mailbox.id,
        prospectIds: [a, b],
      })
    ).enrolled as { id: string }[];
    const [e1, e2] = enrolled.map((e) => e.id);
    const linkedin = await make('POST', '/v1/linkedin-accounts', {
      provider: 'sandbox',
      providerAccountId: 'acc_contract',
      name: 'Contract SDR',
      poolIds: [pool.id],
    });
    const suppression = await make('POST', '/v1/suppressions', { kind: 'domain', value: 'blocked.example' });
    const key = await make('POST', '/v1/keys', { name: 'contract-reader', scope: 'read' });
    const domain = (await make('GET', '/v1/domains')).items[0];
    const client = await f.db.pool.connect();
    const triageId = await f.repos.triage
      .record(client, {
        eventId: crypto.randomUUID(),
        source: 'sandbox',
        kind: 'unknown_sender',
        email: 'who@unknown.example',
        classification: 'interested',
        why: ['a question'],
      })
      .finally(() => client.release());
    const run = await make('POST', '/v1/domains/health/run?wait=0');
    const v2 = await make('POST', `/v1/sequences/${sequence.id}/versions`, { steps: steps(3) });
    const plan = await make('POST', `/v1/sequences/${sequence.id}/migrations`, {
      from: 1,
      to: 2,
      mapping: { 'step-1': 'step-1', 'step-2': 'step-2' },
      reason: 'contract',
    });

    const S = `/v1/sequences/${sequence.id}`;
    const M = `/v1/mailboxes/${mailbox.id}`;
    const why = { reason: 'the contract test' };
    /** Every operation, in an order that leaves each the state it needs; its request and its success. */
    /** A touch of step 1 sent, as the sender leaves it (after the migration, which it would refuse). */
    const sentTouch = async () => {
      await f.db.pool.query(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, provider_message_id, variant, sent_at)
         VALUES ($1, $2, 1, 'sent', $3, 'msg-1', 0, now())`,
        [crypto.randomUUID(), e1, `${e1}-1-1`],
      );
    };
    const calls: [
      op: string,
      status: number,
      method: string,
      url: string,
      payload?: object | string,
      before?: () => Promise<void>,
    ][] = [
      ['GET /v1/mailboxes', 200, 'GET', '/v1/mailboxes'],
      [
        'POST /v1/mailboxes',
        201,
        'POST',
        '/v1/mailboxes',
        { provider: 'sandbox', address: 'x@contract.example' },
      ],
      ['GET /v1/mailboxes/usage', 200, 'GET', '/v1/mailboxes/usage'],
      ['GET /v1/mailboxes/{id}', 200, 'GET', M],
      ['PATCH /v1/mailboxes/{id}/caps', 200, 'PATCH', `${M}/caps`, { perDay: 100, ...why }],
      ['PUT /v1/mailboxes/{id}/sending-window', 200, 'PUT', `${M}/sending-window`, { windowDays: [1, 2, 3] }],
      ['POST /v1/mailboxes/{id}/pause', 200, 'POST', `${M}/pause`, why],
      ['POST /v1/mailboxes/{id}/resume', 200, 'POST', `${M}/resume`, why],
      ['POST /v1/mailbox-pools', 201, 'POST', '/v1/mailbox-pools', { name: 'p', mailboxIds: [member.id] }],
      ['GET /v1/mailbox-pools', 200, 'GET', '/v1/mailbox-pools'],
      ['GET /v1/mailbox-pools/{id}', 200, 'GET', `/v1/mailbox-pools/${pool.id}`],
      ['DELETE /v1/mailbox-pools/{id}', 204, 'DELETE', `/v1/mailbox-pools/${spare.id}?reason=gone`],
      ['POST /v1/sequences', 201, 'POST', '/v1/sequences', { name: 't', steps: steps(1) }],
      ['GET /v1/sequences', 200, 'GET', '/v1/sequences'],
      ['GET /v1/sequences/{id}', 200, 'GET', S],
      ['GET /v1/sequences/{id}', 200, 'GET', `/v1/sequences/${graphed.id}`],
      ['POST /v1/sequences/{id}/versions', 201, 'POST', `${S}/versions`, { steps: steps(2) }],
      ['PUT /v1/sequences/{id}/mailbox-pool', 200, 'PUT', `${S}/mailbox-pool`, { mailboxPoolId: null }],
      ['GET /v1/sequences/{id}/policies', 200, 'GET', `${S}/policies`],
      ['PATCH /v1/sequences/{id}/policies', 200, 'PATCH', `${S}/policies`, { contact: { cooldownDays: 14 } }],
      [
        'PUT /v1/sequences/{id}/sending-window',
        200,
        'PUT',
        `${S}/sending-window`,
        { sendingWindow: { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', holidays: ['2026-12-25'] } },
      ],
      ['GET /v1/sequences/{id}/funnel', 200, 'GET', `${S}/funnel`],
      [
        'POST /v1/sequences/{id}/migrations',
        201,
        'POST',
        `${S}/migrations`,
        {
          from: 1,
          to: v2.version,
          mapping: { 'step-1': 'step-1', 'step-2': 'step-2' },
          reason: 'contract',
        },
      ],
      ['POST /v1/sequences/{id}/migrations', 202, 'POST', `${S}/migrations`, { planId: plan.planId, ...why }],
      ['GET /v1/sequences/{id}/migrations/{mid}', 200, 'GET', `${S}/migrations/${plan.planId}`],
      ['POST /v1/prospects', 200, 'POST', '/v1/prospects', { prospects: [{ email: 'e@people.example' }] }],
      ['GET /v1/prospects', 200, 'GET', '/v1/prospects'],
      ['GET /v1/prospects/{id}', 200, 'GET', `/v1/prospects/${a}`],
      [
        'POST /v1/prospects/import',
        200,
        'POST',
        '/v1/prospects/import',
        'email,first name,plan\nimported@people.example,Imp,gold\nnot-an-address,Bad,\n',
      ],
      ['POST /v1/prospects/{id}/merge', 200, 'POST', `/v1/prospects/${c}/merge`, { from: d, ...why }],
      [
        'POST /v1/enrollments',
        201,
        'POST',
        '/v1/enrollments',
        {
          sequenceId: sequence.id,
          mailboxId: mailbox.id,
          prospectIds: [c, a],
        },
      ],
      ['GET /v1/enrollments', 200, 'GET', '/v1/enrollments'],
      ['GET /v1/enrollments', 200, 'GET', '/v1/enrollments?waiting=due'],
      ['GET /v1/enrollments/{id}', 200, 'GET', `/v1/enrollments/${e1}`],
      [
        'GET /v1/enrollments/{id}/timeline',
        200,
        'GET',
        `/v1/enrollments/${e1}/timeline`,
        undefined,
        sentTouch,
      ],
      ['GET /v1/enrollments/{id}/waiting', 200, 'GET', `/v1/enrollments/${e1}/waiting`],
      ['GET /v1/enrollments/waiting/summary', 200, 'GET', '/v1/enrollments/waiting/summary'],
      ['POST /v1/enrollments/{id}/pause', 200, 'POST', `/v1/enrollments/${e1}/pause`, why],
      ['POST /v1/enrollments/{id}/resume', 200, 'POST', `/v1/enrollments/${e1}/resume`, why],
      [
        'POST /v1/enrollments/bulk/pause',
        200,
        'POST',
        '/v1/enrollments/bulk/pause',
        {
          filter: { sequenceId: sequence.id },
          ...why,
        },
      ],
      [
        'POST /v1/enrollments/bulk/resume',
        200,
        'POST',
        '/v1/enrollments/bulk/resume',
        {
          filter: { sequenceId: sequence.id },
          ...why,
        },
      ],
      ['POST /v1/enrollments/{id}/cancel', 200, 'POST', `/v1/enrollments/${e2}/cancel`, why],
      [
        'POST /v1/enrollments/bulk/cancel',
        200,
        'POST',
        '/v1/enrollments/bulk/cancel',
        {
          filter: { sequenceId: sequence.id },
          ...why,
        },
      ],
      ['GET /v1/linkedin-accounts', 200, 'GET', '/v1/linkedin-accounts'],
      [
        'POST /v1/linkedin-accounts',
        201,
        'POST',
        '/v1/linkedin-accounts',
        {
          provider: 'sandbox',
          providerAccountId: 'acc_two',
          name: 'Two',
        },
      ],
      ['GET /v1/linkedin-accounts/{id}', 200, 'GET', `/v1/linkedin-accounts/${linkedin.id}`],
      ['GET /v1/suppressions', 200, 'GET', '/v1/suppressions'],
      [
        'POST /v1/suppressions',
        200,
        'POST',
        '/v1/suppressions',
        { kind: 'domain', value: 'blocked.example' },
      ],
      [
        'POST /v1/suppressions',
        201,
        'POST',
        '/v1/suppressions',
        { kind: 'email', value: 'b@people.example' },
      ],
      ['GET /v1/suppressions/check', 200, 'GET', '/v1/suppressions/check?email=x@blocked.example'],
      ['DELETE /v1/suppressions/{id}', 204, 'DELETE', `/v1/suppressions/${suppression.id}?reason=gone`],
      ['GET /v1/keys', 200, 'GET', '/v1/keys?includeRevoked=true'],
      ['POST /v1/keys', 201, 'POST', '/v1/keys', { name: 'contract-writer', scope: 'write' }],
      ['POST /v1/keys/{id}/revoke', 200, 'POST', `/v1/keys/${key.id}/revoke`],
      ['GET /v1/domains', 200, 'GET', '/v1/domains'],
      ['GET /v1/domains/health', 200, 'GET', '/v1/domains/health'],
      ['POST /v1/domains/health/run', 202, 'POST', '/v1/domains/health/run?wait=0'],
      ['GET /v1/domains/health/runs/{jobId}', 200, 'GET', `/v1/domains/health/runs/${run.jobId}`],
      ['GET /v1/domains/{id}', 200, 'GET', `/v1/domains/${domain.id}`],
      [
        'POST /v1/domains/{id}/pause',
        200,
        'POST',
        `/v1/domains/${domain.id}/pause`,
        { by: 'Ann', reason: 'bounces' },
      ],
      [
        'POST /v1/domains/{id}/resume',
        200,
        'POST',
        `/v1/domains/${domain.id}/resume`,
        { by: 'Ann', reason: 'fixed' },
      ],
      ['GET /v1/alerts', 200, 'GET', '/v1/alerts'],
      ['GET /v1/triage', 200, 'GET', '/v1/triage'],
      ['POST /v1/triage/{id}/resolve', 200, 'POST', `/v1/triage/${triageId}/resolve`],
      ['GET /v1/audit', 200, 'GET', '/v1/audit'],
      ['GET /v1/stats', 200, 'GET', `/v1/stats?sequenceId=${sequence.id}`],
      ['GET /v1/stats', 200, 'GET', '/v1/stats'],
      ['GET /v1/stats/funnel', 200, 'GET', '/v1/stats/funnel'],
      ['GET /v1/stats/funnel/mailboxes', 200, 'GET', '/v1/stats/funnel/mailboxes'],
      [
        'POST /v1/simulations',
        200,
        'POST',
        '/v1/simulations?picture=svg',
        {
          sequenceId: sequence.id,
          mailboxIds: [mailbox.id],
          start: '2026-12-01T07:00:00Z',
          seed: 3,
          prospects: { count: 20 },
        },
      ],
      ['DELETE /v1/prospects/{id}', 200, 'DELETE', `/v1/prospects/${b}?reason=asked`],
      // After the erasure: it recorded an event.
      ['GET /v1/events', 200, 'GET', '/v1/events'],
    ];
    const documented = documentedOperations(f.app)
      .filter((op) => op.path.startsWith('/v1/'))
      .map((op) => `${op.method} ${op.path}`);
    expect(
      documented.filter((op) => !calls.some(([c]) => c === op)),
      'operations the contract test does not call',
    ).toEqual([]);
    for (const [op, status, method, url, payload, before] of calls) {
      await before?.();
      const csv = typeof payload === 'string';
      const { res } = await call(method, url, payload, csv ? 'text/csv' : undefined);
      // The checking serializer (strict in tests) made any dropped field a 500 here.
      expect(res.statusCode, `${op}: ${res.body.slice(0, 500)}`).toBe(status);
      if (status === 204) expect(res.body).toBe('');
      else expectConforms(op.slice(op.indexOf(' ') + 1), method, res);
    }
  });

  it('refusals and the guard match the declared problem schemas', async () => {
    const post = async (url: string, payload: object) => {
      const res = await f.app.inject({ method: 'POST', url, headers, payload });
      return { res, body: res.json() };
    };
    expectConforms('/v1/prospects', 'POST', (await post('/v1/prospects', { prospects: [] })).res);
    expectConforms(
      '/v1/sequences/{id}',
      'GET',
      await f.app.inject({ method: 'GET', url: `/v1/sequences/${crypto.randomUUID()}`, headers }),
    );
    expectConforms(
      '/v1/enrollments/{id}/cancel',
      'POST',
      (await post(`/v1/enrollments/${crypto.randomUUID()}/cancel`, {})).res,
    );
    expectConforms('/v1/sequences', 'GET', await f.app.inject({ method: 'GET', url: '/v1/sequences' }));
    const readKey = await f.key('read');
    expectConforms(
      '/v1/sequences',
      'POST',
      await f.app.inject({
        method: 'POST',
        url: '/v1/sequences',
        headers: { authorization: `Bearer ${readKey}` },
        payload: {},
      }),
    );
  });
});
