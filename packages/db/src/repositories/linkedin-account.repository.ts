import { randomUUID } from 'node:crypto';
import { DomainError, type LinkedInCaps } from '@touchbase/core';
import type { PrismaClient } from '../database.js';
import type { Prisma } from '../generated/prisma/client.js';

/** A LinkedIn account as the API creates it; caps and window left out take their defaults. */
export type LinkedInAccountInput = {
  provider: string;
  providerAccountId: string;
  name: string;
  /** The account's own profile URL, already normalised (`normaliseLinkedInProfileUrl`). */
  profileUrl?: string | null;
  invitationsPerDay?: number;
  invitationsPerWeek?: number;
  messagesPerDay?: number;
  profileVisitsPerDay?: number;
  perHour?: number;
  minSpacingMs?: number;
  windowDays?: number[];
  windowStart?: string;
  windowEnd?: string;
  holidays?: string[];
  timezone?: string;
  /** Pools to join at once (beside their mailboxes). */
  poolIds?: string[];
};

const INCLUDE = { pools: { select: { poolId: true } } } as const;
export type LinkedInAccountRow = Prisma.LinkedinAccountGetPayload<{ include: typeof INCLUDE }>;

/** The caps of a stored account, in core's shape (what `LinkedInThrottle.take` takes). */
export function linkedInCapsOf(row: {
  invitationsPerDay: number;
  invitationsPerWeek: number;
  messagesPerDay: number;
  profileVisitsPerDay: number;
  perHour: number;
  minSpacingMs: number;
}): LinkedInCaps {
  return {
    invitationsPerDay: row.invitationsPerDay,
    invitationsPerWeek: row.invitationsPerWeek,
    messagesPerDay: row.messagesPerDay,
    profileVisitsPerDay: row.profileVisitsPerDay,
    perHour: row.perHour,
    minSpacingMs: row.minSpacingMs,
  };
}

/** LinkedIn sending identities and their pool membership; persists only (the caps' rules are core's). */
export class LinkedInAccountRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Creates an account, and its pool memberships, in one transaction.
   * @throws DomainError `conflict` when the provider already has this account; `not_found` for an unknown pool.
   */
  async create(input: LinkedInAccountInput): Promise<LinkedInAccountRow> {
    const { poolIds = [], ...fields } = input;
    try {
      return await this.prisma.$transaction(async (tx) => {
        const id = randomUUID();
        if (poolIds.length > 0) {
          const found = await tx.mailboxPool.count({ where: { id: { in: poolIds } } });
          if (found !== new Set(poolIds).size)
            throw new DomainError('not_found', 'a pool of poolIds does not exist', { field: 'poolIds' });
        }
        await tx.linkedinAccount.create({ data: { id, ...fields } });
        if (poolIds.length > 0) {
          await tx.linkedinAccountPoolMember.createMany({
            data: [...new Set(poolIds)].map((poolId) => ({ poolId, accountId: id })),
          });
        }
        return tx.linkedinAccount.findUniqueOrThrow({ where: { id }, include: INCLUDE });
      });
    } catch (err) {
      // P2002: the unique (provider, provider_account_id) refused a second row.
      if ((err as { code?: unknown }).code === 'P2002') {
        throw new DomainError('conflict', 'this provider account is registered already', {
          field: 'providerAccountId',
        });
      }
      throw err;
    }
  }

  async get(id: string): Promise<LinkedInAccountRow> {
    const row = await this.prisma.linkedinAccount.findUnique({ where: { id }, include: INCLUDE });
    if (!row) throw new DomainError('not_found', 'LinkedIn account not found', { linkedinAccountId: id });
    return row;
  }

  /** A page of accounts in id order, after the cursor. */
  async page(limit: number, after?: string): Promise<LinkedInAccountRow[]> {
    return this.prisma.linkedinAccount.findMany({
      where: after ? { id: { gt: after } } : {},
      include: INCLUDE,
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /** The active accounts of a pool, for choosing the one with the most room (as the pool's mailboxes are). */
  async activeInPool(poolId: string): Promise<LinkedInAccountRow[]> {
    return this.prisma.linkedinAccount.findMany({
      where: { status: 'active', pools: { some: { poolId } } },
      include: INCLUDE,
      orderBy: { createdAt: 'asc' },
    });
  }

  /**
   * Pauses an account a provider reported restricted or disconnected
   * (`LinkedInActionError.blamesAccount`); only the call that changes the state
   * answers true (touches refused at the same moment all try).
   */
  async pause(id: string, reason: string): Promise<boolean> {
    const r = await this.prisma.linkedinAccount.updateMany({
      where: { id, status: 'active' },
      data: { status: 'paused', statusReason: reason.slice(0, 500) },
    });
    return r.count === 1;
  }

  /**
   * Who acts on LinkedIn for an enrollment and on whom: the account it keeps (null
   * before its first LinkedIn node) and the prospect's LinkedIn profile URL (null
   * when the prospect has none).
   */
  async targetOf(
    enrollmentId: string,
  ): Promise<{ account: LinkedInAccountRow | null; profileUrl: string | null } | null> {
    const row = await this.prisma.enrollment.findUnique({
      where: { id: enrollmentId },
      select: {
        linkedinAccount: { include: INCLUDE },
        prospect: {
          select: { identities: { where: { kind: 'linkedin' }, select: { value: true }, take: 1 } },
        },
      },
    });
    if (!row) return null;
    return { account: row.linkedinAccount, profileUrl: row.prospect.identities[0]?.value ?? null };
  }

  /**
   * Gives an enrollment the account that will act for it from now on, once: the
   * invitation and the chat stay with one account. Answers the account it has
   * (another sender may have given it one first).
   */
  async assignToEnrollment(enrollmentId: string, accountId: string): Promise<string | null> {
    await this.prisma.enrollment.updateMany({
      where: { id: enrollmentId, linkedinAccountId: null },
      data: { linkedinAccountId: accountId },
    });
    const row = await this.prisma.enrollment.findUnique({
      where: { id: enrollmentId },
      select: { linkedinAccountId: true },
    });
    return row?.linkedinAccountId ?? null;
  }

  async resume(id: string): Promise<void> {
    const r = await this.prisma.linkedinAccount.updateMany({
      where: { id },
      data: { status: 'active', statusReason: null },
    });
    if (r.count === 0)
      throw new DomainError('not_found', 'LinkedIn account not found', { linkedinAccountId: id });
  }
}
