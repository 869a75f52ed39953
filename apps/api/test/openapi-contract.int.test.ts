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
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  /** The declared schema of an answer, by status (or its class, `4XX`) and media type. */
  const declared = (path: string, method: string, status: number, type: string) => {
    const responses = doc.paths[path]?.[method.toLowerCase()]?.responses ?? {};
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
  });
  afterAll(async () => {
    await f?.close();
  });

  it('is OpenAPI 3.1 and valid for an independent validator (@apidevtools/swagger-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
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
      for (const status of success)
        expect(responses[status]?.content?.['application/json']?.schema, `${what} ${status}`).toBeDefined();
      for (const status of GUARD_STATUSES)
        expect(
          responses[status]?.content?.['application/problem+json']?.schema,
          `${what} ${status}`,
        ).toBeDefined();
    }
  });

  it('real answers match the declared schemas: successes, refusals, the guard', async () => {
    const post = async (url: string, payload: object) => {
      const res = await f.app.inject({ method: 'POST', url, headers, payload });
      return { res, body: res.json() };
    };
    const mailbox = await post('/v1/mailboxes', { provider: 'sandbox', address: 'sdr@contract.example' });
    expectConforms('/v1/mailboxes', 'POST', mailbox.res);
    const sequence = await post('/v1/sequences', { name: 's', steps: [{ subject: 'Hi', body: 'Hello' }] });
    expectConforms('/v1/sequences', 'POST', sequence.res);
    const prospects = await post('/v1/prospects', { prospects: [{ email: 'p@contract.example' }] });
    expectConforms('/v1/prospects', 'POST', prospects.res);
    const enrolled = await post('/v1/enrollments', {
      sequenceId: sequence.body.id,
      mailboxId: mailbox.body.id,
      prospectIds: [prospects.body.prospects[0].id],
    });
    expectConforms('/v1/enrollments', 'POST', enrolled.res);
    const suppression = await post('/v1/suppressions', { kind: 'domain', value: 'blocked.example' });
    expectConforms('/v1/suppressions', 'POST', suppression.res);
    const linkedin = await post('/v1/linkedin-accounts', {
      provider: 'sandbox',
      providerAccountId: 'acc_contract',
      name: 'Contract SDR',
    });
    expectConforms('/v1/linkedin-accounts', 'POST', linkedin.res);
    expectConforms(
      '/v1/linkedin-accounts',
      'POST',
      (
        await post('/v1/linkedin-accounts', {
          provider: 'sandbox',
          providerAccountId: 'acc_contract',
          name: 'x',
        })
      ).res,
    );
    const ids: Record<string, string> = {
      '/v1/mailboxes/{id}': mailbox.body.id,
      '/v1/linkedin-accounts/{id}': linkedin.body.id,
      '/v1/sequences/{id}': sequence.body.id,
      '/v1/prospects/{id}': prospects.body.prospects[0].id,
      '/v1/enrollments/{id}': enrolled.body.enrolled[0].id,
      '/v1/enrollments/{id}/timeline': enrolled.body.enrolled[0].id,
    };
    let checked = 0;
    for (const op of documentedOperations(f.app)) {
      if (op.method !== 'GET' || !op.path.startsWith('/v1/')) continue;
      const url = ids[op.path] ? op.path.replace('{id}', ids[op.path]!) : op.url;
      const res = await f.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, `${op.path}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expectConforms(op.path, 'GET', res);
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
    // Refusals: validation, not found, conflict, and the guard's.
    expectConforms('/v1/prospects', 'POST', (await post('/v1/prospects', { prospects: [] })).res);
    expectConforms(
      '/v1/sequences/{id}',
      'GET',
      await f.app.inject({ method: 'GET', url: `/v1/sequences/${crypto.randomUUID()}`, headers }),
    );
    const again = await post(`/v1/enrollments/${enrolled.body.enrolled[0].id}/cancel`, {});
    expectConforms('/v1/enrollments/{id}/cancel', 'POST', again.res);
    expectConforms(
      '/v1/enrollments/{id}/cancel',
      'POST',
      (await post(`/v1/enrollments/${enrolled.body.enrolled[0].id}/cancel`, {})).res,
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
