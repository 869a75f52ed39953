import type { ApiKeyRow } from '@touchbase/db';
import type { ApiKeyDeps } from './create-api-key.js';

/**
 * Revokes a key by id or name: it (and every browser session opened with it)
 * stops working at the next request. Audited.
 * @returns the revoked key, or null when no live key has that id or name.
 */
export async function revokeApiKey(
  deps: ApiKeyDeps,
  input: { idOrName: string; actor: string },
): Promise<ApiKeyRow | null> {
  const revoked = await deps.repos.apiKeys.revoke(input.idOrName);
  if (!revoked) return null;
  await deps.repos.audit.write({
    actor: input.actor,
    action: 'api_key.revoked',
    entityType: 'api_key',
    entityId: revoked.id,
    data: { name: revoked.name },
  });
  return revoked;
}
