import {
  CrmLookupUnavailableError,
  UnsubscribeTokenError,
  WebhookPayloadError,
  WebhookVerificationError,
} from '@touchbase/providers';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError, registerProblemHandler } from '../src/index.js';

const THROWN: Record<string, () => Error> = {
  signature: () => new WebhookVerificationError('bad_signature', 'webhook-signature does not match'),
  json: () =>
    new WebhookPayloadError('malformed_json', 'the body is not JSON', [
      { field: '(body)', message: 'not JSON' },
    ]),
  payload: () =>
    new WebhookPayloadError('validation_failed', 'body.email: Required', [
      { field: 'body.email', message: 'Required' },
    ]),
  'crm-said': () => new CrmLookupUnavailableError('hubspot answered 429', 2_500),
  'crm-silent': () => new CrmLookupUnavailableError('hubspot unreachable: ECONNREFUSED', undefined),
  unsubscribe: () => new UnsubscribeTokenError(),
  app: () =>
    new ProblemError({ status: 400, title: 'Malformed CSV', code: 'malformed_csv', detail: 'line 3' }),
};

/** Routes throw errors with stable codes; the one handler says what each becomes. */
describe('problem handler: webhook, CRM and unsubscribe errors', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerProblemHandler(app);
    app.get<{ Params: { kind: string } }>('/throw/:kind', async (req) => {
      throw THROWN[req.params.kind]!();
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const call = async (kind: string) => {
    const res = await app.inject({ method: 'GET', url: `/throw/${kind}` });
    expect(res.headers['content-type']).toContain('application/problem+json');
    return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] };
  };

  it('a webhook that fails verification is 401 with its code', async () => {
    expect(await call('signature')).toEqual({
      status: 401,
      retryAfter: undefined,
      body: {
        type: 'https://touchbase.dev/problems/bad_signature',
        status: 401,
        title: 'Webhook not authenticated',
        code: 'bad_signature',
        detail: 'webhook-signature does not match',
      },
    });
  });

  it('a webhook body that is not JSON, or not the provider’s, is 400 naming the field', async () => {
    expect((await call('json')).body).toMatchObject({
      status: 400,
      title: 'Malformed JSON',
      code: 'malformed_json',
    });
    expect(await call('payload')).toEqual({
      status: 400,
      retryAfter: undefined,
      body: {
        type: 'https://touchbase.dev/problems/validation_failed',
        status: 400,
        title: 'Invalid webhook payload',
        code: 'validation_failed',
        detail: 'body.email: Required',
        errors: [{ field: 'body.email', message: 'Required' }],
      },
    });
  });

  it('a CRM that cannot answer is 503 with the Retry-After it asked for, or a minute', async () => {
    const said = await call('crm-said');
    expect([said.status, said.retryAfter, said.body.code, said.body.title]).toEqual([
      503,
      '3',
      'crm_unavailable',
      'CRM unavailable',
    ]);
    expect(said.body.detail).toBe(
      'Could not ask the CRM who is on the deal; nothing was recorded, send it again (hubspot answered 429)',
    );
    expect((await call('crm-silent')).retryAfter).toBe('60');
  });

  it('an unsubscribe token that is not ours is 404', async () => {
    expect(await call('unsubscribe')).toMatchObject({
      status: 404,
      body: { code: 'invalid_unsubscribe_token', title: 'Unsubscribe link not valid' },
    });
  });

  it("an app's own ProblemError is sent as it says", async () => {
    expect(await call('app')).toEqual({
      status: 400,
      retryAfter: undefined,
      body: {
        type: 'https://touchbase.dev/problems/malformed_csv',
        status: 400,
        title: 'Malformed CSV',
        code: 'malformed_csv',
        detail: 'line 3',
      },
    });
  });
});
