/**
 * The wait a `Retry-After` header asks for, in ms, or undefined when it is absent
 * or unreadable. Both forms of RFC 9110 §10.2.3 are read: delta-seconds (`120`)
 * and an HTTP-date (`Sun, 22 Nov 2026 10:00:30 GMT`, measured from `nowMs`; a
 * date already past asks for no wait, never a negative one).
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  nowMs = Date.now(),
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The wait a `Retry-After` header asks for, in ms (see {@link parseRetryAfter}),
 * or `fallbackMs` when absent or unreadable.
 */
export function retryAfterMs(
  value: string | string[] | undefined,
  fallbackMs = 1_000,
  nowMs = Date.now(),
): number {
  return parseRetryAfter(value, nowMs) ?? fallbackMs;
}
