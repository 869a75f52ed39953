import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, deferredChild, lazyChildLoggerFactory } from '../src/index.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'test', level: 'info', destination }) };
}

describe('logger', () => {
  it('redacts e-mail addresses and message bodies', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        enrollmentId: 'e1',
        email: 'ada@example.com',
        body: 'Hi Ada, secret pricing',
        note: 'reply from grace@example.org',
      },
      'Touch sent',
    );
    logger.warn('Failed for linus@example.net');
    logger.error({ err: new Error('SMTP refused ken@example.com') }, 'Send failed');
    const out = lines.join('');
    expect(out).not.toMatch(/@example\.(com|org|net)/);
    expect(out).not.toContain('secret pricing');
    expect(out).toContain('"enrollmentId":"e1"');
    expect(out).toContain('Touch sent');
  });

  it('a deferred child binds its fields on the lines it writes, and makes no child below the level', () => {
    const { lines, logger } = capture();
    let children = 0;
    const counted = new Proxy(logger, {
      get(target, prop, receiver) {
        if (prop === 'child') {
          return (...args: Parameters<typeof logger.child>) => {
            children++;
            return target.child(...args);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const log = deferredChild(counted, { enrollmentId: 'e2', step: 1 });
    log.debug('below the level');
    expect(children).toBe(0);
    log.info({ variant: 0 }, 'Touch sent');
    log.warn('Touch outcome unknown');
    expect(children).toBe(1);
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      { enrollmentId: 'e2', step: 1, variant: 0, msg: 'Touch sent' },
      { enrollmentId: 'e2', step: 1, msg: 'Touch outcome unknown' },
    ]);
  });

  it("a request's lazy logger makes its pino child at the first line written, with the request's bindings", () => {
    const { lines, logger } = capture();
    let children = 0;
    const counted = new Proxy(logger, {
      get(target, prop, receiver) {
        if (prop === 'child') {
          return (...args: Parameters<typeof logger.child>) => {
            children++;
            return target.child(...args);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const log = lazyChildLoggerFactory(counted, { reqId: 'req-1' }, {});
    log.debug('below the level');
    expect(children).toBe(0);
    expect(log.level).toBe('info');
    log.warn({ email: 'ada@example.com' }, 'Request failed');
    log.error('Request failed again');
    expect(children).toBe(1);
    const written = lines.map((l) => JSON.parse(l));
    expect(written).toMatchObject([
      { reqId: 'req-1', email: '[redacted]', msg: 'Request failed' },
      { reqId: 'req-1', msg: 'Request failed again' },
    ]);
  });
});
