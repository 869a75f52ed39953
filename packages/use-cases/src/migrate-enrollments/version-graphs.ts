import type { SequenceGraph, VersionGraphs } from '@touchbase/core';
import type { MigrateEnrollmentsDeps } from './migrate-enrollments.deps.js';

/**
 * The graphs of versions `ids` (the versions an enrollment's touches ran in), into
 * `cache` (versions are immutable, so a graph read once holds for the whole run).
 */
export async function loadVersionGraphs(
  deps: MigrateEnrollmentsDeps,
  ids: Iterable<string>,
  cache: Map<string, SequenceGraph> = new Map(),
): Promise<VersionGraphs> {
  for (const id of ids) {
    if (cache.has(id)) continue;
    cache.set(id, (await deps.repos.sequences.version(id)).graph);
  }
  return cache;
}
