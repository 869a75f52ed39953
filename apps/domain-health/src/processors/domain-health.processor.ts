import type { DomainHealthDeps, TickResult } from '../use-cases/domain-health-tick.js';
import { domainHealthTick } from '../use-cases/domain-health-tick.js';

/**
 * The `domain-health.tick` job: the job carries nothing (a tick judges every domain),
 * so the processor only runs the tick's use case; its result is the job's return value.
 */
export function createDomainHealthProcessor(deps: DomainHealthDeps): () => Promise<TickResult> {
  return () => domainHealthTick(deps);
}
