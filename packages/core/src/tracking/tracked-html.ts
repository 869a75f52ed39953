import { MAX_TRACKING_TOKEN_LENGTH, signTrackingToken } from './tracking-token.js';

/** Which tracking a sequence turned on (both off by default: see SequencePoliciesSchema). */
export type TrackingSettings = { opens: boolean; clicks: boolean };

/** The touch whose HTML is tracked, the key that signs, and where ingest serves `/t/…`. */
export type TrackingContext = {
  touchId: string;
  enrollmentId: string;
  secret: string;
  /** Ingest's public URL (INGEST_PUBLIC_URL), e.g. `https://t.example.com`. */
  baseUrl: string;
};

/** The URL of an open pixel: `GET {base}/t/o/{token}` answers a 1x1 GIF and records the open once. */
export function trackingPixelUrl(ctx: TrackingContext): string {
  const token = signTrackingToken(
    { touchId: ctx.touchId, enrollmentId: ctx.enrollmentId, kind: 'open' },
    ctx.secret,
  );
  return `${ctx.baseUrl.replace(/\/$/, '')}/t/o/${token}`;
}

/** The tracked form of a link: `GET {base}/t/c/{token}` records the click once and redirects to `url`. */
export function trackedLinkUrl(ctx: TrackingContext, url: string): string {
  const token = signTrackingToken(
    { touchId: ctx.touchId, enrollmentId: ctx.enrollmentId, kind: 'click', url },
    ctx.secret,
  );
  return `${ctx.baseUrl.replace(/\/$/, '')}/t/c/${token}`;
}

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gis;

/**
 * An HTML body with tracking injected as the sequence asks (nothing when both are
 * off): every `http(s)` link of an `<a href>` rewritten to its tracked form, and a
 * 1x1 pixel before `</body>` (or at the end). Left alone: `mailto:`, `tel:`,
 * anchors, the one-click unsubscribe link (`unsubscribeUrl`: a mail client follows
 * it without a person, and RFC 8058 wants it as sent), links marked
 * `data-touchbase-notrack`, and links too long to carry in a token.
 */
export function injectTracking(
  html: string,
  settings: TrackingSettings,
  ctx: TrackingContext,
  opts: { unsubscribeUrl?: string | null } = {},
): string {
  let out = html;
  if (settings.clicks) {
    out = out.replace(HREF, (whole, head: string, quote: string, raw: string) => {
      if (/\bdata-touchbase-notrack\b/i.test(head)) return whole;
      const url = decodeEntities(raw.trim());
      if (!/^https?:\/\//i.test(url)) return whole;
      if (opts.unsubscribeUrl && url === opts.unsubscribeUrl) return whole;
      if (url.length > MAX_TRACKING_TOKEN_LENGTH / 2) return whole;
      return `${head}${quote}${escapeAttr(trackedLinkUrl(ctx, url))}${quote}`;
    });
  }
  if (settings.opens) {
    const pixel = `<img src="${escapeAttr(trackingPixelUrl(ctx))}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" />`;
    const at = out.search(/<\/body\s*>/i);
    out = at === -1 ? `${out}${pixel}` : `${out.slice(0, at)}${pixel}${out.slice(at)}`;
  }
  return out;
}

/** The entities an href may carry (`&amp;` between query parameters above all). */
function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/gi, '&')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>');
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
