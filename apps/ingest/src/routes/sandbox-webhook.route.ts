import { normaliseSandboxEvent, SandboxEventPayloadSchema, verifyStandardWebhook, WebhookVerificationError } from '@touchbase/providers';
import { fieldErrors, sendProblem } from '@touchbase/runtime';
import type { FastifyInstance } from 'fastify';
import { type IngestDeps, ingestEvent } from '../use-cases/ingest-event.js';

/**
 * `POST /webhooks/sandbox`: Standard Webhooks signature over the raw body first
 * (401, nothing recorded), then the JSON and its schema (400 problem+json naming
 * the field, nothing recorded), then record once and apply.
 */
export async function sandboxWebhookRoute(app: FastifyInstance, opts: IngestDeps & { secret: string }): Promise<void> {
  app.post('/webhooks/sandbox', async (req, reply) => {
    const raw = req.body as string;
    try {
      verifyStandardWebhook(opts.secret, req.headers, raw);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      opts.metrics.eventsReceived.inc({ source: 'sandbox', type: 'unknown', outcome: 'rejected_signature' });
      return sendProblem(reply, { status: 401, title: 'Invalid webhook signature', code: err.code, detail: err.message });
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return sendProblem(reply, { status: 400, title: 'Malformed JSON', code: 'malformed_json', errors: [{ field: '(body)', message: 'not JSON' }] });
    }
    const parsed = SandboxEventPayloadSchema.safeParse(json);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error, 'body');
      return sendProblem(reply, {
        status: 400,
        title: 'Invalid webhook payload',
        code: 'validation_failed',
        detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
        errors,
      });
    }
    const result = await ingestEvent(opts, normaliseSandboxEvent(parsed.data));
    return reply.code(200).send({ received: true, duplicate: result.duplicate, outcome: result.outcome, eventId: result.eventId });
  });
}
