import { randomBytes } from 'node:crypto';
import pg from 'pg';

const DEFAULT_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** An empty database owned by one test. */
export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database (no migrations: the runner's tests apply their own) named
 * `touchbase_test_<label>_<random>` on `TEST_DATABASE_SERVER_URL`.
 */
export async function createScratchDatabase(label: string): Promise<ScratchDatabase> {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL || DEFAULT_SERVER_URL;
  const name = `touchbase_test_${label}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  };
}

/** Runs `fn` with a client on `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function onServer(serverUrl: string, sql: string): Promise<void> {
  return withClient(serverUrl, async (client) => {
    await client.query(sql);
  });
}
