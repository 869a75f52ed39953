import { randomUUID } from 'node:crypto';
import { DomainError } from '@touchbase/core';
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
  timezone?: string;
  providerConfig?: Record<string, unknown>;
};

/** Mailboxes and their sending domains (a domain row is created with its first mailbox). */
export class MailboxRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(input: MailboxInput) {
    const address = input.address.trim().toLowerCase();
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
}
