import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/index.js';

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
});
