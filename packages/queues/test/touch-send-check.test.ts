import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isTouchSend, TouchSendSchema } from '../src/queue-catalog.js';

describe('isTouchSend, the sender hot path check of a touch job', () => {
  const e = randomUUID();
  const payloads: unknown[] = [
    { e, s: 1 },
    { e, s: 7, a: 2 },
    { e, s: 2, a: 3, r: 4 },
    { e, s: 1, r: 1 },
    { e: e.toUpperCase(), s: 1 },
    { e: '00000000-0000-0000-0000-000000000000', s: 1 },
    { e, s: 0 },
    { e, s: 1.5 },
    { e, s: '1' },
    { e, s: 1, a: 1 },
    { e, s: 1, a: 4 },
    { e, s: 1, r: 0 },
    { e, s: 1, x: 1 },
    { e, s: 1, a: undefined },
    { e: 'not-a-uuid', s: 1 },
    { e: `${e}0`, s: 1 },
    { e: '123e4567-e89b-02d3-a456-426614174000', s: 1 },
    { s: 1 },
    { e },
    null,
    [],
    'x',
    { e, s: Number.NaN },
    { e, s: Number.POSITIVE_INFINITY },
  ];

  it('accepts exactly what TouchSendSchema accepts', () => {
    for (const p of payloads) expect([p, isTouchSend(p)]).toEqual([p, TouchSendSchema.safeParse(p).success]);
  });
});
