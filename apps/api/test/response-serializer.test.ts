import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkedSerializerCompiler, droppedPaths } from '../src/plugins/response-serializer.js';

describe('the checking response serializer', () => {
  /** Reads of /counted's `id`: one by the encoding, one more when the answer is compared. */
  let reads = 0;
  it('names each field the schema let drop, nested and in lists', () => {
    expect(
      droppedPaths(
        { id: 'a', extra: 1, items: [{ id: 'b', secret: null }], nested: { keep: 1, lost: { x: 1 } } },
        { id: 'a', items: [{ id: 'b' }], nested: { keep: 1 } },
      ),
    ).toEqual(['extra', 'items.0.secret', 'nested.lost']);
    expect(droppedPaths({ at: '2026-01-01T00:00:00.000Z' }, { at: '2026-01-01T00:00:00.000Z' })).toEqual([]);
  });

  const app = async (strict: boolean, warned: unknown[]) => {
    const a = Fastify();
    a.setValidatorCompiler(validatorCompiler);
    a.setSerializerCompiler(
      checkedSerializerCompiler({
        strict,
        log: {
          warn: (fields) => warned.push(fields),
          error: (fields) => warned.push({ error: fields.route }),
        },
      }),
    );
    a.get(
      '/thing',
      { schema: { response: { 200: z.object({ id: z.string(), at: z.date() }) } } },
      async () => ({ id: 'x', at: new Date('2026-01-02T03:04:05Z'), undeclared: 'kept out' }) as never,
    );
    a.get(
      '/whole',
      { schema: { response: { 200: z.object({ id: z.string(), at: z.date() }) } } },
      async () => ({ id: 'x', at: new Date('2026-01-02T03:04:05Z') }),
    );
    a.get(
      '/counted',
      { schema: { response: { 200: z.object({ id: z.string() }) } } },
      async () =>
        Object.defineProperty({}, 'id', {
          enumerable: true,
          get: () => {
            reads++;
            return 'x';
          },
        }) as { id: string },
    );
    a.get(
      '/mistyped',
      { schema: { response: { 200: z.object({ n: z.number() }) } } },
      async () => ({ n: 'not a number' }) as never,
    );
    await a.ready();
    return a;
  };

  it('strict: a field the schema does not declare is a 500 naming it; a whole answer goes out', async () => {
    const warned: unknown[] = [];
    const a = await app(true, warned);
    const res = await a.inject({ method: 'GET', url: '/thing' });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toMatch(/GET \/thing 200.*undeclared/);
    expect((await a.inject({ method: 'GET', url: '/mistyped' })).statusCode).toBe(500);
    const ok = await a.inject({ method: 'GET', url: '/whole' });
    expect(ok.json()).toEqual({ id: 'x', at: '2026-01-02T03:04:05.000Z' });
    await a.close();
  });

  it('not strict: the answer goes out without the field (the route warned about once), or unchecked when mistyped', async () => {
    const warned: unknown[] = [];
    const a = await app(false, warned);
    for (let i = 0; i < 2; i++) {
      const res = await a.inject({ method: 'GET', url: '/thing' });
      expect(res.json()).toEqual({ id: 'x', at: '2026-01-02T03:04:05.000Z' });
    }
    expect(warned).toEqual([{ route: 'GET /thing 200', dropped: ['undeclared'] }]);
    // A value of another type than declared: the client gets its answer, the log an error.
    const mistyped = await a.inject({ method: 'GET', url: '/mistyped' });
    expect(mistyped.json()).toEqual({ n: 'not a number' });
    expect(warned.at(-1)).toEqual({ error: 'GET /mistyped 200' });
    await a.close();
  });

  it("not strict: a route's answers are compared while few, then one in 1,024, so an answer costs its encoding", async () => {
    const a = await app(false, []);
    const readsOf = async (n: number) => {
      reads = 0;
      for (let i = 0; i < n; i++) await a.inject({ method: 'GET', url: '/counted' });
      return reads;
    };
    expect(await readsOf(100)).toBe(200);
    expect(await readsOf(100)).toBe(100);
    await a.close();
  });

  it('strict: every answer is compared', async () => {
    const a = await app(true, []);
    reads = 0;
    for (let i = 0; i < 150; i++) await a.inject({ method: 'GET', url: '/counted' });
    expect(reads).toBe(300);
    await a.close();
  });
});
