import { randomUUID } from 'node:crypto';
import {
  DomainError,
  type SequenceDefinition,
  type SequenceStep,
  SequenceStepsSchema,
} from '@touchbase/core';
import type { PrismaClient } from '../database.js';

export type SequenceVersionRow = { id: string; sequenceId: string; version: number; steps: SequenceStep[] };

/** Sequences and their immutable versions. */
export class SequenceRepository {
  // Versions never change once written, so caching them forever is safe.
  private readonly versions = new Map<string, SequenceVersionRow>();

  constructor(private readonly prisma: PrismaClient) {}

  /** Creates a sequence with its first version. */
  async create(def: SequenceDefinition): Promise<{ id: string; name: string; version: SequenceVersionRow }> {
    const id = randomUUID();
    const versionId = randomUUID();
    await this.prisma.sequence.create({
      data: { id, name: def.name, versions: { create: { id: versionId, version: 1, steps: def.steps } } },
    });
    return { id, name: def.name, version: { id: versionId, sequenceId: id, version: 1, steps: def.steps } };
  }

  /** Adds a new version; running enrollments keep theirs. */
  async addVersion(sequenceId: string, steps: SequenceStep[]): Promise<SequenceVersionRow> {
    return this.prisma.$transaction(async (tx) => {
      const latest = await tx.sequenceVersion.findFirst({
        where: { sequenceId },
        orderBy: { version: 'desc' },
      });
      if (!latest) throw new DomainError('not_found', 'sequence not found', { sequenceId });
      const row = await tx.sequenceVersion.create({
        data: { id: randomUUID(), sequenceId, version: latest.version + 1, steps },
      });
      return { id: row.id, sequenceId, version: row.version, steps };
    });
  }

  async get(id: string) {
    const row = await this.prisma.sequence.findUnique({
      where: { id },
      include: { versions: { orderBy: { version: 'asc' } } },
    });
    if (!row) throw new DomainError('not_found', 'sequence not found', { sequenceId: id });
    return row;
  }

  async list(limit: number, after?: string) {
    return this.prisma.sequence.findMany({
      take: limit,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
      orderBy: { id: 'asc' },
    });
  }

  async latestVersion(sequenceId: string): Promise<SequenceVersionRow> {
    const row = await this.prisma.sequenceVersion.findFirst({
      where: { sequenceId },
      orderBy: { version: 'desc' },
    });
    if (!row) throw new DomainError('not_found', 'sequence not found', { sequenceId });
    return this.remember(row);
  }

  /** A version's steps, from memory when seen before. */
  async version(versionId: string): Promise<SequenceVersionRow> {
    const cached = this.versions.get(versionId);
    if (cached) return cached;
    const row = await this.prisma.sequenceVersion.findUnique({ where: { id: versionId } });
    if (!row) throw new DomainError('not_found', 'sequence version not found', { versionId });
    return this.remember(row);
  }

  private remember(row: {
    id: string;
    sequenceId: string;
    version: number;
    steps: unknown;
  }): SequenceVersionRow {
    const v = {
      id: row.id,
      sequenceId: row.sequenceId,
      version: row.version,
      steps: SequenceStepsSchema.parse(row.steps),
    };
    this.versions.set(v.id, v);
    return v;
  }
}
