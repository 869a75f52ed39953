/**
 * The wait a `Retry-After` header asks for, in ms: delta-seconds or an HTTP-date
 * (RFC 9110 §10.2.3). Falls back to `fallbackMs` when absent or unreadable, and
 * never answers less than 0.
 */
export function retryAfterMs(
  value: string | string[] | undefined,
  fallbackMs = 1_000,
  nowMs = Date.now(),
): number {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return fallbackMs;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? fallbackMs : Math.max(0, at - nowMs);
}
