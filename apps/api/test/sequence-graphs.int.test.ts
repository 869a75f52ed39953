import { chainGraph } from '@touchbase/core';
import { FIELD_EXAMPLE_GRAPH as FIELD_EXAMPLE } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const TOKEN = 'graphs-admin-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };

describe('/v1/sequences with graphs', () => {
  let f: ApiFixture;
  let poolId: string;
  let emailOnlyPool: string;
  beforeAll(async () => {
    f = await apiFixture('sequence_graphs', { adminToken: TOKEN });
    const post = (url: string, payload: object) => f.app.inject({ method: 'POST', url, headers, payload });
    const mailbox = (
      await post('/v1/mailboxes', { provider: 'sandbox', address: 'sdr@graphs.example' })
    ).json();
    poolId = (await post('/v1/mailbox-pools', { name: 'two-channel', mailboxIds: [mailbox.id] })).json().id;
    emailOnlyPool = (
      await post('/v1/mailbox-pools', { name: 'e-mail only', mailboxIds: [mailbox.id] })
    ).json().id;
    const account = await post('/v1/linkedin-accounts', {
      provider: 'sandbox',
      providerAccountId: 'acc_graphs',
      name: 'SDR',
      poolIds: [poolId],
    });
    expect(account.statusCode).toBe(201);
  });
  afterAll(async () => {
    await f?.close();
  });

  const create = async (payload: object) => {
    const res = await f.app.inject({ method: 'POST', url: '/v1/sequences', headers, payload });
    return { status: res.statusCode, body: res.json(), type: res.headers['content-type'] };
  };

  it('takes a two-channel graph when its pool has a mailbox and a LinkedIn account', async () => {
    const r = await create({ name: 'Field example', graph: FIELD_EXAMPLE, mailboxPoolId: poolId });
    expect(r.status).toBe(201);
    expect(r.body.version.graph).toEqual(FIELD_EXAMPLE);
    expect(r.body.version.steps).toEqual([]);
    const stored = await f.repos.sequences.version(r.body.version.id);
    expect(stored.graph).toEqual(FIELD_EXAMPLE);
  });

  it('still takes a list of steps, stored as its chain', async () => {
    const steps = [
      { subject: 'Hi', body: 'One', wait: '2d' },
      { subject: 'x', body: 'Two' },
    ];
    const r = await create({ name: 'Linear', steps });
    expect(r.status).toBe(201);
    const stored = await f.repos.sequences.version(r.body.version.id);
    expect(stored.graph).toEqual(chainGraph(stored.steps));
    expect(stored.graph.nodes.map((n) => n.id)).toEqual(['step-1', 'step-2', 'end']);
  });

  it('refuses LinkedIn nodes whose pool has no LinkedIn account (or no pool), naming the node', async () => {
    for (const pool of [emailOnlyPool, undefined]) {
      const r = await create({
        name: 'No account',
        graph: FIELD_EXAMPLE,
        ...(pool ? { mailboxPoolId: pool } : {}),
      });
      expect(r.status).toBe(400);
      expect(r.type).toContain('application/problem+json');
      expect(r.body.code).toBe('invalid_graph');
      expect(r.body.errors).toEqual([
        {
          field: 'graph.nodes.0.action',
          message: expect.stringContaining('node "connect" sends on linkedin'),
        },
        { field: 'graph.nodes.1.action', message: expect.stringContaining('node "dm"') },
      ]);
    }
  });

  it('refuses a graph that cannot run, naming each node and edge', async () => {
    const bad = {
      ...FIELD_EXAMPLE,
      edges: [
        ...FIELD_EXAMPLE.edges.slice(0, 2),
        { from: 'dm', to: 'nowhere', trigger: 'no_reply', wait: '3d' },
        { from: 'mail', to: 'end', trigger: 'no_reply', wait: '3d' },
        { from: 'mail', to: 'dm', trigger: 'no_reply', wait: '1d' },
      ],
    };
    const r = await create({ name: 'Bad', graph: bad, mailboxPoolId: poolId });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      {
        field: 'graph.edges.2.to',
        message: expect.stringContaining('edge 2 (dm -no_reply-> nowhere): no node "nowhere"'),
      },
      {
        field: 'graph.edges.4.trigger',
        message: expect.stringContaining('node "mail" already has a "no_reply" edge'),
      },
    ]);
    const typo = await create({
      name: 'Typo',
      mailboxPoolId: poolId,
      graph: {
        ...FIELD_EXAMPLE,
        nodes: FIELD_EXAMPLE.nodes.map((n) => (n.id === 'mail' ? { ...n, body: 'Hi {{FirstName}}' } : n)),
      },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.errors).toEqual([
      { field: 'graph.nodes.2.body', message: expect.stringContaining('did you mean "{{firstName}}"') },
    ]);
    const shape = await create({ name: 'Shape', graph: { nodes: [{ id: 'a', action: 'fax' }], edges: [] } });
    expect(shape.status).toBe(400);
    expect(JSON.stringify(shape.body.errors)).toContain('graph.nodes');
  });

  it('refuses both steps and a graph, or neither, naming the field', async () => {
    const both = await create({ name: 'Both', steps: [{ subject: 's', body: 'b' }], graph: FIELD_EXAMPLE });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([{ field: 'graph', message: expect.any(String) }]);
    const neither = await create({ name: 'Neither' });
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual([{ field: 'steps', message: expect.any(String) }]);
  });

  it('adds a graph version, checked against the sequence pool', async () => {
    const seq = await create({
      name: 'Versions',
      steps: [{ subject: 's', body: 'b' }],
      mailboxPoolId: emailOnlyPool,
    });
    const url = `/v1/sequences/${seq.body.id}/versions`;
    const refused = await f.app.inject({ method: 'POST', url, headers, payload: { graph: FIELD_EXAMPLE } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('invalid_graph');
    const emailGraph = {
      nodes: [
        { id: 'mail', action: 'email', subject: 's', body: 'b' },
        { id: 'again', action: 'email', subject: 's', body: 'clicked it' },
        { id: 'end', action: 'end' },
      ],
      edges: [
        { from: 'mail', to: 'again', trigger: 'clicked', wait: '1d' },
        { from: 'mail', to: 'end', trigger: 'no_reply', wait: '5d' },
        { from: 'again', to: 'end', trigger: 'always', wait: '2d' },
      ],
    };
    const added = await f.app.inject({ method: 'POST', url, headers, payload: { graph: emailGraph } });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ version: 2, graph: emailGraph });
  });
});
