import type { SendContext } from '@touchbase/db';
import type { SenderContext } from './send-touch.types.js';

/**
 * The first touch of a pool sequence goes out from the active member with the
 * most room left in its day (a prospect already touched from a member stays on
 * it); the enrollment keeps that mailbox for the rest of its thread.
 *
 * Touches picked at the same moment all see the same "most room", so each
 * member is tried in that order for a token without queueing; the first that
 * grants one is taken. When none can send now, the touch queues on the member
 * with the most room.
 */
export async function pickPoolMailbox(
  sc: SenderContext,
  ctx: SendContext,
  poolId: string,
  member: string,
  /** The touch being sent (1 for a chain) and a graph's e-mail nodes (null for a chain: no touch at all yet). */
  at: { step: number; emailNodes: number[] | null } = { step: 1, emailNodes: null },
): Promise<{ ctx: SendContext; granted: boolean } | null> {
  const { repos, throttle } = sc;
  const candidates = await repos.touches.poolCandidates(poolId, ctx.prospect.id);
  if (candidates.length === 0) return null;
  const used =
    throttle && candidates.length > 1
      ? await throttle.usedToday(candidates.map((c) => c.id))
      : new Map<string, number>();
  // Ties go to a random member, so replicas starting together spread out.
  const ranked = candidates
    .map((c) => ({ c, room: c.perDay - (used.get(c.id) ?? 0) + Math.random() * 0.5 }))
    .sort((a, b) => b.room - a.room)
    .map((r) => r.c);
  let chosen = ranked[0]!;
  let granted = false;
  if (throttle) {
    for (const c of ranked) {
      if ((await throttle.take(c.id, c, member, { queue: false })).granted) {
        chosen = c;
        granted = true;
        break;
      }
    }
  }
  if (chosen.id === ctx.mailbox.id) return { ctx, granted };
  await repos.touches.assignMailbox(ctx.enrollmentId, chosen.id, at.step, at.emailNodes);
  const moved = await repos.touches.loadForSend(ctx.enrollmentId);
  // Moved by nobody else in between: the token was taken for the mailbox it now has.
  return moved ? { ctx: moved, granted: granted && moved.mailbox.id === chosen.id } : null;
}
