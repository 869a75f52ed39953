import { parseArgs } from 'node:util';
import { ApiKeyNameSchema, createApiKey, parseScope, revokeApiKey } from '@touchbase/api';
import { DomainError } from '@touchbase/core';
import { type ApiKeyRow, createDatabase, createRepositories } from '@touchbase/db';
import type { Config } from '@touchbase/runtime';

export const KEYS_USAGE = `usage: touchbase keys <create|list|revoke>

  keys create --name NAME --scope read|write|admin
                      create an API key and print it (once: only its hash is stored)
  keys list [--all]   list the keys (--all: revoked ones too), never the keys themselves
  keys revoke ID|NAME revoke a key; it stops working at once
`;

/** Who the audit log names for what this command does. */
const ACTOR = 'cli';

/**
 * `touchbase keys`: API keys in the database named by DATABASE_URL. Needs only
 * PostgreSQL (not Redis, not a running API).
 * @returns the exit code: 0 done, 1 refused (name taken, no such key), 2 usage.
 */
export async function runKeys(
  args: string[],
  config: Pick<Config, 'DATABASE_URL'>,
  out: { print: (line: string) => void; error: (line: string) => void },
): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      scope: { type: 'string' },
      all: { type: 'boolean', default: false },
    },
  });
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') {
    out.error(KEYS_USAGE);
    return 2;
  }
  const db = createDatabase(config.DATABASE_URL, { poolSize: 2 });
  try {
    const repos = createRepositories(db);
    if (sub === 'create') {
      const name = ApiKeyNameSchema.safeParse(values.name ?? '');
      const scope = parseScope(values.scope);
      if (!name.success || !scope) {
        if (!name.success) out.error(`--name: ${name.error.issues[0]?.message ?? 'invalid'}`);
        if (!scope) out.error('--scope: one of read, write, admin');
        out.error(KEYS_USAGE);
        return 2;
      }
      const { apiKey, key } = await createApiKey({ repos }, { name: name.data, scope, actor: ACTOR });
      out.print(`Created API key "${apiKey.name}" with the ${apiKey.scope} scope (id ${apiKey.id}).`);
      out.print('Store it now: it is shown once, and only its SHA-256 hash is kept.');
      out.print(key);
      return 0;
    }
    if (sub === 'list') {
      const keys = (await repos.apiKeys.list({ includeRevoked: values.all ?? false })).sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
      );
      if (keys.length === 0) out.print('no API keys');
      for (const k of keys) out.print(describeKey(k));
      return 0;
    }
    const target = positionals[0];
    if (!target) {
      out.error(KEYS_USAGE);
      return 2;
    }
    const revoked = await revokeApiKey({ repos }, { idOrName: target, actor: ACTOR });
    if (!revoked) {
      out.error(`no live API key has the id or name "${target}"`);
      return 1;
    }
    out.print(`Revoked API key "${revoked.name}" (id ${revoked.id}).`);
    return 0;
  } catch (err) {
    // A taken name is the user's to fix: one line, not a stack.
    if (err instanceof DomainError && err.code === 'conflict') {
      out.error((err as Error).message);
      return 1;
    }
    throw err;
  } finally {
    await db.close();
  }
}

function describeKey(k: ApiKeyRow): string {
  const used = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : 'never used';
  const revoked = k.revokedAt ? `  REVOKED ${k.revokedAt.toISOString()}` : '';
  return `${k.id}  ${k.name}  ${k.scope}  created ${k.createdAt.toISOString()}  ${used}${revoked}`;
}
