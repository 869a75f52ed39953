import { randomUUID } from 'node:crypto';
import { DomainError, normalisedEmail } from '@touchbase/core';
import type { PrismaClient } from '../database.js';

export type MailboxInput = {
  provider: string;
  address: string;
  perMinute?: number;
  perHour?: number;
  perDay?: number;
  minSpacingMs?: number;
  windowDays?: number[];
  windowStart?: string;
  windowEnd?: string;
  /** Local dates (YYYY-MM-DD) on which the mailbox does not send. */
  holidays?: string[];
  timezone?: string;
  providerConfig?: Record<string, unknown>;
};

/** A mailbox's sending window as the API changes it: weekdays (empty: any time), hours, holidays, zone. */
export type MailboxWindowInput = Pick<
  MailboxInput,
  'windowDays' | 'windowStart' | 'windowEnd' | 'holidays' | 'timezone'
>;

/** Mailboxes and their sending domains (a domain row is created with its first mailbox). */
export class MailboxRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(input: MailboxInput) {
    const address = normalisedEmail(input.address);
    const domainName = address.split('@')[1];
    if (!domainName) throw new DomainError('conflict', 'mailbox address has no domain', { field: 'address' });
    return this.prisma.$transaction(async (tx) => {
      const domain = await tx.sendingDomain.upsert({
        where: { domain: domainName },
        create: { id: randomUUID(), domain: domainName },
        update: {},
      });
      const existing = await tx.mailbox.findUnique({ where: { address } });
      if (existing)
        throw new DomainError('conflict', 'a mailbox with this address exists', { mailboxId: existing.id });
      const { address: _ignored, providerConfig, ...rest } = input;
      return tx.mailbox.create({
        data: {
          id: randomUUID(),
          address,
          domainId: domain.id,
          ...rest,
          providerConfig: (providerConfig ?? {}) as object,
        },
        include: { domain: true },
      });
    });
  }

  async get(id: string) {
    const row = await this.prisma.mailbox.findUnique({ where: { id }, include: { domain: true } });
    if (!row) throw new DomainError('not_found', 'mailbox not found', { mailboxId: id });
    return row;
  }

  async list() {
    return this.prisma.mailbox.findMany({ include: { domain: true }, orderBy: { createdAt: 'asc' } });
  }

  /**
   * Pauses a mailbox because a provider blamed our own setup (authentication,
   * DMARC, a disconnected mailbox) and records an ops alert, in one transaction.
   * The prospect is not at fault and is not suppressed; the mailbox's touches are
   * held until it is resumed.
   *
   * Only the call that changes the state raises the alert: touches refused at the
   * same moment all try, and the conditional update lets one through.
   * @returns the id of the alert this call raised, to enqueue its delivery; null
   * when the mailbox was already paused.
   */
  async pauseForSetupProblem(
    mailboxId: string,
    reason: string,
    data: Record<string, unknown> = {},
  ): Promise<string | null> {
    return this.prisma.$transaction(async (tx) => {
      const paused = await tx.mailbox.updateMany({
        where: { id: mailboxId, status: 'active' },
        data: { status: 'paused', statusReason: reason.slice(0, 500) },
      });
      if (paused.count === 0) return null;
      const mailbox = await tx.mailbox.findUniqueOrThrow({ where: { id: mailboxId } });
      const alertId = randomUUID();
      await tx.alert.create({
        data: {
          id: alertId,
          kind: 'mailbox.paused',
          domainId: mailbox.domainId,
          message: `Mailbox paused: ${reason}`.slice(0, 1000),
          data: { mailboxId, provider: mailbox.provider, reason, ...data } as object,
        },
      });
      return alertId;
    });
  }

  /**
   * Changes a mailbox's sending window (the fields given). Touches scheduled from
   * now on follow it; touches already scheduled keep their time.
   */
  async setSendingWindow(mailboxId: string, window: MailboxWindowInput) {
    const r = await this.prisma.mailbox.updateMany({ where: { id: mailboxId }, data: window });
    if (r.count === 0) throw new DomainError('not_found', 'mailbox not found', { mailboxId });
    return this.get(mailboxId);
  }

  /** Resumes a paused mailbox; its held touches go out on their next attempt. */
  async resume(mailboxId: string): Promise<boolean> {
    const r = await this.prisma.mailbox.updateMany({
      where: { id: mailboxId, status: 'paused' },
      data: { status: 'active', statusReason: null },
    });
    return r.count > 0;
  }

  /** Creates a pool of mailboxes a sequence can send from. */
  async createPool(name: string, mailboxIds: string[]) {
    const unique = [...new Set(mailboxIds)];
    const found = await this.prisma.mailbox.count({ where: { id: { in: unique } } });
    if (found !== unique.length)
      throw new DomainError('not_found', 'a mailbox of the pool does not exist', { field: 'mailboxIds' });
    const existing = await this.prisma.mailboxPool.findUnique({ where: { name } });
    if (existing) throw new DomainError('conflict', 'a pool with this name exists', { poolId: existing.id });
    return this.prisma.mailboxPool.create({
      data: { id: randomUUID(), name, members: { create: unique.map((mailboxId) => ({ mailboxId })) } },
      include: { members: true },
    });
  }

  async getPool(id: string) {
    const pool = await this.prisma.mailboxPool.findUnique({ where: { id }, include: { members: true } });
    if (!pool) throw new DomainError('not_found', 'mailbox pool not found', { poolId: id });
    return pool;
  }

  /** The channels a pool has a sending identity for: `email` with a mailbox, `linkedin` with a LinkedIn account. */
  async poolChannels(poolId: string): Promise<Set<'email' | 'linkedin'>> {
    const pool = await this.prisma.mailboxPool.findUnique({
      where: { id: poolId },
      select: { _count: { select: { members: true, linkedinMembers: true } } },
    });
    if (!pool) throw new DomainError('not_found', 'mailbox pool not found', { poolId });
    const channels = new Set<'email' | 'linkedin'>();
    if (pool._count.members > 0) channels.add('email');
    if (pool._count.linkedinMembers > 0) channels.add('linkedin');
    return channels;
  }

  async listPools() {
    return this.prisma.mailboxPool.findMany({ include: { members: true }, orderBy: { createdAt: 'asc' } });
  }

  /** Makes a sequence send its first touches from a pool (null: from each enrollment's mailbox). */
  async setSequencePool(sequenceId: string, poolId: string | null): Promise<void> {
    if (poolId) await this.getPool(poolId);
    const r = await this.prisma.sequence.updateMany({
      where: { id: sequenceId },
      data: { mailboxPoolId: poolId },
    });
    if (r.count === 0) throw new DomainError('not_found', 'sequence not found', { sequenceId });
  }
}
