import { randomUUID } from 'node:crypto';
import type { ApiKeyRow, Repositories } from '@touchbase/db';
import { hashApiKey, mintApiKey } from '../auth/api-key.js';
import type { ApiScope } from '../auth/api-scope.js';

export type ApiKeyDeps = { repos: Pick<Repositories, 'apiKeys' | 'audit'> };

/**
 * Creates an API key: mints the secret, stores only its hash, audits who made it.
 * @returns the row and the key itself, which nothing can show again.
 * @throws DomainError `conflict` when the name was ever used.
 */
export async function createApiKey(
  deps: ApiKeyDeps,
  input: { name: string; scope: ApiScope; actor: string },
): Promise<{ apiKey: ApiKeyRow; key: string }> {
  const key = mintApiKey();
  const apiKey = await deps.repos.apiKeys.create({
    id: randomUUID(),
    name: input.name,
    scope: input.scope,
    keyHash: hashApiKey(key),
  });
  await deps.repos.audit.write({
    actor: input.actor,
    action: 'api_key.created',
    entityType: 'api_key',
    entityId: apiKey.id,
    data: { name: apiKey.name, scope: apiKey.scope },
  });
  return { apiKey, key };
}
