import Fastify, { type FastifyInstance } from 'fastify';

/**
 * A local HubSpot for e2e tests: records contact updates (PATCH), answers which
 * contacts a deal has; and a local alert webhook receiver (`/alerts`) that keeps
 * what it was sent.
 */
export async function fakeHubspot() {
  const calls: { url: string; body: unknown; status: number }[] = [];
  const alerts: { type: string; data: Record<string, unknown> }[] = [];
  const deals = new Map<string, string[]>();
  const app: FastifyInstance = Fastify({ logger: false });
  app.patch('/crm/v3/objects/contacts/:id', async (req) => {
    calls.push({ url: req.url, body: req.body, status: 200 });
    return { id: '1', properties: {} };
  });
  app.get<{ Params: { id: string } }>(
    '/crm/v4/objects/deals/:id/associations/contacts',
    async (req, reply) => {
      const contacts = deals.get(req.params.id);
      calls.push({ url: req.url, body: null, status: contacts ? 200 : 404 });
      if (!contacts) return reply.code(404).send({ message: 'no' });
      return {
        results: contacts.map((id) => ({
          toObjectId: Number(id),
          associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 3 }],
        })),
      };
    },
  );
  app.post('/alerts', async (req) => {
    alerts.push(req.body as { type: string; data: Record<string, unknown> });
    return { ok: true };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, calls, alerts, deals, close: () => app.close() };
}
