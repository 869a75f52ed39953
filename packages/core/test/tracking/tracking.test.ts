import { describe, expect, it } from 'vitest';
import { sequencePoliciesOf } from '../../src/people/sequence-policies.js';
import { injectTracking, trackedLinkUrl, trackingPixelUrl } from '../../src/tracking/tracked-html.js';
import { trackingEvent } from '../../src/tracking/tracking-event.js';
import { signTrackingToken, verifyTrackingToken } from '../../src/tracking/tracking-token.js';

const SECRET = 'tracking-secret-of-the-tests';
const touchId = '0b7f3c3e-8a4e-4f7e-9d55-5f0a2c1d9e01';
const enrollmentId = '6a1d9a52-3a34-4c52-8c1e-2f8e7d0c4b11';
const ctx = { touchId, enrollmentId, secret: SECRET, baseUrl: 'https://t.example.com/' };

const tokenOf = (url: string) => url.split('/').pop() as string;

describe('tracking tokens', () => {
  it('round-trips an open and a click, the click with the exact URL it signs', () => {
    const open = signTrackingToken({ touchId, enrollmentId, kind: 'open' }, SECRET);
    expect(verifyTrackingToken(open, SECRET)).toEqual({ touchId, enrollmentId, kind: 'open' });
    const url = 'https://example.com/a?b=1&c=%20d#e';
    const click = signTrackingToken({ touchId, enrollmentId, kind: 'click', url }, SECRET);
    expect(verifyTrackingToken(click, SECRET)).toEqual({ touchId, enrollmentId, kind: 'click', url });
  });

  it('refuses a token of another secret, a changed character anywhere, or a truncated one', () => {
    const token = signTrackingToken({ touchId, enrollmentId, kind: 'click', url: 'https://a.io/' }, SECRET);
    expect(verifyTrackingToken(token, 'another-secret-of-the-tests')).toBeNull();
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === 'A' ? 'B' : 'A';
      const tampered = `${token.slice(0, i)}${c}${token.slice(i + 1)}`;
      if (tampered !== token) expect(verifyTrackingToken(tampered, SECRET)).toBeNull();
    }
    expect(verifyTrackingToken(token.slice(0, -1), SECRET)).toBeNull();
    expect(verifyTrackingToken(`${token}.x`, SECRET)).toBeNull();
    expect(verifyTrackingToken('', SECRET)).toBeNull();
    expect(verifyTrackingToken('x'.repeat(5000), SECRET)).toBeNull();
  });

  it('cannot be re-pointed: a click token whose URL is swapped for another no longer verifies', () => {
    const token = signTrackingToken(
      { touchId, enrollmentId, kind: 'click', url: 'https://good.io/' },
      SECRET,
    );
    const [body, mac] = token.split('.') as [string, string];
    const wire = JSON.parse(Buffer.from(body, 'base64url').toString());
    wire.u = 'https://evil.io/';
    const swapped = `${Buffer.from(JSON.stringify(wire)).toString('base64url')}.${mac}`;
    expect(verifyTrackingToken(swapped, SECRET)).toBeNull();
  });

  it('an open and a click of the same touch differ, and so do two touches', () => {
    const a = signTrackingToken({ touchId, enrollmentId, kind: 'open' }, SECRET);
    const b = signTrackingToken({ touchId: enrollmentId, enrollmentId, kind: 'open' }, SECRET);
    expect(a).not.toBe(b);
    expect(a).not.toBe(signTrackingToken({ touchId, enrollmentId, kind: 'click', url: '' }, SECRET));
  });
});

describe('injectTracking', () => {
  const html =
    '<html><body><p>Hi <a href="https://example.com/x?a=1&amp;b=2">here</a>, ' +
    "<a class='c' href='http://plain.io'>plain</a> <a href=\"mailto:a@b.io\">mail</a> " +
    '<a href="#top">top</a> <a data-touchbase-notrack href="https://keep.io/">keep</a> ' +
    '<a href="https://t.example.com/u/abc">unsubscribe</a></p></body></html>';

  it('does nothing when both are off (the default of every sequence)', () => {
    const policies = sequencePoliciesOf({});
    expect(policies.tracking).toEqual({ opens: false, clicks: false });
    expect(injectTracking(html, policies.tracking, ctx)).toBe(html);
  });

  it('rewrites http(s) links to signed ones leading back to the original, and leaves the rest', () => {
    const out = injectTracking(html, { opens: false, clicks: true }, ctx, {
      unsubscribeUrl: 'https://t.example.com/u/abc',
    });
    const hrefs = [...out.matchAll(/href=(["'])(.*?)\1/g)].map((m) => m[2] as string);
    expect(hrefs).toHaveLength(6);
    const [first, second, mail, top, keep, unsub] = hrefs as [string, string, string, string, string, string];
    expect(first.startsWith('https://t.example.com/t/c/')).toBe(true);
    expect(verifyTrackingToken(tokenOf(first), SECRET)?.url).toBe('https://example.com/x?a=1&b=2');
    expect(verifyTrackingToken(tokenOf(second), SECRET)?.url).toBe('http://plain.io');
    expect([mail, top, keep, unsub]).toEqual([
      'mailto:a@b.io',
      '#top',
      'https://keep.io/',
      'https://t.example.com/u/abc',
    ]);
    expect(out).not.toContain('/t/o/');
  });

  it('adds one pixel before </body>, or at the end of a fragment', () => {
    const out = injectTracking(html, { opens: true, clicks: false }, ctx);
    expect(out.match(/\/t\/o\//g)).toHaveLength(1);
    expect(out.indexOf('/t/o/')).toBeLessThan(out.indexOf('</body>'));
    const pixel = /src="([^"]+)"/.exec(out)?.[1] as string;
    expect(pixel).toBe(trackingPixelUrl(ctx));
    expect(verifyTrackingToken(tokenOf(pixel), SECRET)).toEqual({ touchId, enrollmentId, kind: 'open' });
    expect(injectTracking('<p>hi</p>', { opens: true, clicks: false }, ctx)).toMatch(/^<p>hi<\/p><img /);
  });

  it('tracked link URLs are built on the base URL without a double slash', () => {
    expect(trackedLinkUrl(ctx, 'https://a.io/')).toMatch(/^https:\/\/t\.example\.com\/t\/c\/[^/]+$/);
  });
});

describe('trackingEvent', () => {
  it('is opened/clicked of the enrollment, keyed once per (touch, kind)', () => {
    const at = new Date('2026-11-23T10:00:00Z');
    const open = trackingEvent({ touchId, enrollmentId, kind: 'open' }, at);
    expect(open).toMatchObject({
      source: 'tracking',
      externalId: `open:${touchId}`,
      type: 'opened',
      enrollmentId,
      channel: 'email',
    });
    const click = trackingEvent({ touchId, enrollmentId, kind: 'click', url: 'https://a.io/' }, at);
    expect(click).toMatchObject({
      externalId: `click:${touchId}`,
      type: 'clicked',
      data: { url: 'https://a.io/' },
    });
    const other = trackingEvent({ touchId, enrollmentId, kind: 'click', url: 'https://b.io/' }, at);
    expect(other.externalId).toBe(click.externalId);
  });
});
