import { DomainError } from '@touchbase/core';
import type { PrismaClient } from '../database.js';

/** A mailbox's caps: each given one is changed. */
export type MailboxCapsInput = {
  perMinute?: number;
  perHour?: number;
  perDay?: number;
  minSpacingMs?: number;
};

/** The prefix of `status_reason` of a mailbox an operator paused. */
export const OPERATOR_PAUSE_PREFIX = 'operator: ';

/**
 * What an operator changes on mailboxes besides the sending window: caps, a
 * pause, and pools going away. The sender reads caps and status at every take, so
 * a change applies to the touches already pending.
 */
export class MailboxSettingsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Changes the caps given. @returns the caps before and after. @throws DomainError not_found */
  async setCaps(mailboxId: string, caps: MailboxCapsInput) {
    return this.prisma.$transaction(async (tx) => {
      const before = await tx.mailbox.findUnique({
        where: { id: mailboxId },
        select: { perMinute: true, perHour: true, perDay: true, minSpacingMs: true },
      });
      if (!before) throw new DomainError('not_found', 'mailbox not found', { mailboxId });
      const after = await tx.mailbox.update({
        where: { id: mailboxId },
        data: caps,
        select: { perMinute: true, perHour: true, perDay: true, minSpacingMs: true },
      });
      return { before, after };
    });
  }

  /** Pauses an active mailbox: its touches are held until it is resumed. @returns whether it changed. */
  async pause(mailboxId: string, reason: string): Promise<boolean> {
    const r = await this.prisma.mailbox.updateMany({
      where: { id: mailboxId, status: 'active' },
      data: { status: 'paused', statusReason: `${OPERATOR_PAUSE_PREFIX}${reason}`.slice(0, 500) },
    });
    return r.count > 0;
  }

  /**
   * Deletes a pool (its memberships go with it). Refused while a sequence sends from
   * it: detach it first (`PUT /v1/sequences/{id}/mailbox-pool`).
   * @throws DomainError not_found, or conflict naming the sequences.
   */
  async deletePool(poolId: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const pool = await tx.mailboxPool.findUnique({
        where: { id: poolId },
        select: { sequences: { select: { id: true } } },
      });
      if (!pool) throw new DomainError('not_found', 'mailbox pool not found', { poolId });
      if (pool.sequences.length > 0) {
        throw new DomainError('conflict', 'sequences send from this pool', {
          sequenceIds: pool.sequences.map((s) => s.id),
        });
      }
      await tx.mailboxPool.delete({ where: { id: poolId } });
    });
  }

  /** A page of mailboxes in id order, after the cursor (the last id of the previous page). */
  async mailboxPage(limit: number, after?: string) {
    return this.prisma.mailbox.findMany({
      where: after ? { id: { gt: after } } : {},
      include: { domain: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /** A page of mailbox pools in id order, after the cursor. */
  async poolPage(limit: number, after?: string) {
    return this.prisma.mailboxPool.findMany({
      where: after ? { id: { gt: after } } : {},
      include: { members: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }
}
