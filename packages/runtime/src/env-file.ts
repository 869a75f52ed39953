import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

/** The variables of an env file; `path` is null when there was none (or it was skipped). */
export type EnvFile = { path: string | null; values: Record<string, string> };

/**
 * Reads `.env` in the working directory (or `path`) without applying it. A missing
 * file is not an error: `.env` is optional and git-ignored. Skipped under
 * NODE_ENV=test, so the services a test starts run with the test's settings, not a
 * developer's `.env`.
 *
 * `util.parseEnv` (Node's own `.env` grammar, as `--env-file` and
 * `process.loadEnvFile` read it) rather than `process.loadEnvFile`: the caller gets
 * the values and decides what wins over them (the demo puts its own settings
 * between the file and the environment).
 */
export function readEnvFile(opts: { path?: string; env?: Record<string, string | undefined> } = {}): EnvFile {
  if ((opts.env ?? process.env).NODE_ENV === 'test') return { path: null, values: {} };
  const path = resolve(opts.path ?? '.env');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { path: null, values: {} };
    throw err;
  }
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseEnv(text))) if (value !== undefined) values[key] = value;
  return { path, values };
}

/**
 * Loads `.env` into `env` (process.env by default) at start, as Node's `--env-file`
 * does: the real environment wins over the file, so a variable set in the shell, by
 * Docker or by CI is never replaced. Returns the names it set.
 */
export function loadEnvFile(opts: { path?: string; env?: Record<string, string | undefined> } = {}): {
  path: string | null;
  loaded: string[];
} {
  const env = opts.env ?? process.env;
  const file = readEnvFile({ ...opts, env });
  const loaded: string[] = [];
  for (const [key, value] of Object.entries(file.values)) {
    if (env[key] !== undefined) continue;
    env[key] = value;
    loaded.push(key);
  }
  return { path: file.path, loaded };
}
