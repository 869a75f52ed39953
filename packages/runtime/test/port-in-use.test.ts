import { createServer, type Server } from 'node:net';
import { freePort } from '@touchbase/testing';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenNamed, PortInUseError } from '../src/port-in-use.js';
import { describeBootError } from '../src/run-service.js';

describe('a port in use at start-up', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    taken = createServer();
    await new Promise<void>((r) => taken.listen(port, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => taken.close(() => r())));

  it('is a PortInUseError naming the variable, printed as one line', async () => {
    const app = Fastify({ logger: false });
    const where = { host: '127.0.0.1', port };
    const err = await listenNamed('API_PORT', where, () => app.listen(where)).catch((e: unknown) => e);
    await app.close();
    expect(err).toBeInstanceOf(PortInUseError);
    expect(err).toMatchObject({ variable: 'API_PORT', port, code: 'PORT_IN_USE' });
    const line = describeBootError(err);
    expect(line).toMatch(/^API_PORT: port \d+ on 127\.0\.0\.1 is already in use/);
    expect(line).not.toContain('\n');
  });

  it('other listen errors pass unchanged', async () => {
    const boom = new Error('boom');
    await expect(
      listenNamed('API_PORT', { host: '127.0.0.1', port }, () => Promise.reject(boom)),
    ).rejects.toBe(boom);
  });
});

describe('a refused PostgreSQL login at start-up', () => {
  it('says what to set instead of a stack trace', () => {
    const err = Object.assign(new Error('password authentication failed for user "postgres"'), {
      code: '28P01',
    });
    const line = describeBootError(err);
    expect(line).toContain('DATABASE_URL');
    expect(line).not.toContain('    at ');
  });

  it('also behind the boot check, when the URL carries no password and the server asks for one', () => {
    const cause = new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string');
    const wrapped = Object.assign(new Error('Could not connect to PostgreSQL at 127.0.0.1:5432', { cause }), {
      code: 'database_unavailable',
    });
    expect(describeBootError(wrapped)).toMatch(/^PostgreSQL refused the login/);
  });
});
