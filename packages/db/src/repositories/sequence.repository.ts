import { randomUUID } from 'node:crypto';
import {
  DomainError,
  type SendingWindow,
  SendingWindowSchema,
  type SequenceGraph,
  SequenceGraphSchema,
  type SequencePolicies,
  SequencePoliciesSchema,
  type SequenceStep,
  SequenceStepSchema,
  sequencePoliciesOf,
  versionDefinitionOf,
} from '@touchbase/core';
import type { PrismaClient } from '../database.js';
import { Prisma } from '../generated/prisma/client.js';

/**
 * One immutable version: the steps it was given as (`[]` when given as a graph) and
 * the graph it runs as (a list of steps runs as its chain).
 */
export type SequenceVersionRow = {
  id: string;
  sequenceId: string;
  version: number;
  steps: SequenceStep[];
  graph: SequenceGraph;
};

/** A version as given: a list of e-mail steps, or a graph (exactly one). */
export type VersionInput = { steps?: SequenceStep[] | undefined; graph?: SequenceGraph | undefined };

/** Sequences and their immutable versions. */
export class SequenceRepository {
  // Versions never change once written, so caching them forever is safe.
  private readonly versions = new Map<string, SequenceVersionRow>();

  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Creates a sequence with its first version and, optionally, a sending window of
   * its own (it overrides the window of the mailbox each enrollment sends from).
   */
  async create(
    def: { name: string } & VersionInput,
    opts: { sendingWindow?: SendingWindow | null } = {},
  ): Promise<{
    id: string;
    name: string;
    sendingWindow: SendingWindow | null;
    version: SequenceVersionRow;
  }> {
    const id = randomUUID();
    const versionId = randomUUID();
    const sendingWindow = opts.sendingWindow ?? null;
    const { steps, graph } = versionDefinitionOf(def);
    await this.prisma.sequence.create({
      data: {
        id,
        name: def.name,
        ...(sendingWindow ? { sendingWindow } : {}),
        versions: { create: { id: versionId, version: 1, steps, graph } },
      },
    });
    return {
      id,
      name: def.name,
      sendingWindow,
      version: { id: versionId, sequenceId: id, version: 1, steps, graph },
    };
  }

  /** The sequence's own sending window, or null when its touches follow the mailbox's. */
  async sendingWindow(sequenceId: string): Promise<SendingWindow | null> {
    const row = await this.prisma.sequence.findUnique({
      where: { id: sequenceId },
      select: { sendingWindow: true },
    });
    if (!row) throw new DomainError('not_found', 'sequence not found', { sequenceId });
    return row.sendingWindow ? SendingWindowSchema.parse(row.sendingWindow) : null;
  }

  /** The sequence's policies, core's defaults filled in (`sequencePoliciesOf`). */
  async policies(sequenceId: string): Promise<SequencePolicies> {
    const row = await this.prisma.sequence.findUnique({
      where: { id: sequenceId },
      select: { policies: true },
    });
    if (!row) throw new DomainError('not_found', 'sequence not found', { sequenceId });
    return sequencePoliciesOf(row.policies);
  }

  /** Replaces the sequence's policies (validated by core's schema; the defaults are stored filled in). */
  async setPolicies(sequenceId: string, policies: unknown): Promise<SequencePolicies> {
    const parsed = SequencePoliciesSchema.parse(policies);
    const r = await this.prisma.sequence.updateMany({
      where: { id: sequenceId },
      data: { policies: parsed },
    });
    if (r.count === 0) throw new DomainError('not_found', 'sequence not found', { sequenceId });
    return parsed;
  }

  /**
   * Sets (or, with null, removes) the sequence's own sending window. Touches
   * scheduled from now on follow it; the API then re-times the pending ones
   * (use case `retimePendingTouches`).
   */
  async setSendingWindow(sequenceId: string, window: SendingWindow | null): Promise<void> {
    const r = await this.prisma.sequence.updateMany({
      where: { id: sequenceId },
      data: { sendingWindow: window ?? Prisma.DbNull },
    });
    if (r.count === 0) throw new DomainError('not_found', 'sequence not found', { sequenceId });
  }

  /** Adds a new version (a list of steps, or a version given either way); running enrollments keep theirs. */
  async addVersion(sequenceId: string, input: SequenceStep[] | VersionInput): Promise<SequenceVersionRow> {
    const { steps, graph } = versionDefinitionOf(Array.isArray(input) ? { steps: input } : input);
    return this.prisma.$transaction(async (tx) => {
      const latest = await tx.sequenceVersion.findFirst({
        where: { sequenceId },
        orderBy: { version: 'desc' },
      });
      if (!latest) throw new DomainError('not_found', 'sequence not found', { sequenceId });
      const row = await tx.sequenceVersion.create({
        data: { id: randomUUID(), sequenceId, version: latest.version + 1, steps, graph },
      });
      return { id: row.id, sequenceId, version: row.version, steps, graph };
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
    graph: unknown;
  }): SequenceVersionRow {
    const v = {
      id: row.id,
      sequenceId: row.sequenceId,
      version: row.version,
      steps: SequenceStepSchema.array().parse(row.steps),
      graph: SequenceGraphSchema.parse(row.graph),
    };
    this.versions.set(v.id, v);
    return v;
  }
}
