/**
 * Campaign tools (Smartlead, Lemlist) take no idempotency key for a follow-up, but
 * they keep the HTML of what they sent. An HTML comment naming the touch's key
 * travels with the message, invisible to the reader, so a touch in doubt can be
 * looked up ("was this key sent?") instead of being sent twice.
 */
export function touchMarker(idempotencyKey: string): string {
  return `<!-- touchbase:${idempotencyKey} -->`;
}

/** Plain text as the HTML body those tools expect, with the touch's marker at the end. */
export function htmlWithMarker(text: string, idempotencyKey: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `${escaped.split(/\r?\n/).join('<br>')}${touchMarker(idempotencyKey)}`;
}

/** Whether a sent message's HTML carries the marker of `idempotencyKey`. */
export function hasTouchMarker(html: unknown, idempotencyKey: string): boolean {
  return typeof html === 'string' && html.includes(touchMarker(idempotencyKey));
}
