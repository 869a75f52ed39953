import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onFreePort, PortTakenError, waitFor } from '@touchbase/testing';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A PostgreSQL primary and a hot standby streaming from it, both started by the test
 * from the server binaries on free loopback ports, in a temporary directory of
 * their own: never the shared server on 5432. Stop it with `stop()`.
 */
export type ReplicaPair = {
  /** `postgresql://postgres@127.0.0.1:{port}/{database}` of the primary. */
  primaryUrl: string;
  /** The same database on the standby (read-only, `pg_is_in_recovery()` true). */
  replicaUrl: string;
  /** Freezes the standby's replay: from now on it answers as of this moment (unbounded lag). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** Stops the standby alone (the primary keeps running). */
  stopStandby(): Promise<void>;
  stop(): Promise<void>;
};

/** The newest PostgreSQL server binaries on this machine (Debian's layout), or those on PATH. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return '';
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : '';
}

/**
 * Starts the pair and creates `database` on the primary before the base backup
 * (`prepare` runs there first: the migrations), so the standby starts with it.
 */
export async function startReplicaPair(
  database: string,
  prepare: (primaryUrl: string) => Promise<void>,
): Promise<ReplicaPair> {
  const bin = binDir();
  const dir = await mkdtemp(join(tmpdir(), 'touchbase-pg-replica-'));
  // PostgreSQL refuses to run as root: as root, run every server command as `postgres`.
  const asRoot = process.getuid?.() === 0;
  const pgCmd = (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    await chmod(dir, 0o700);
  }
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const started: string[] = [];
  const settings = (port: number) =>
    // fsync off: a test's throwaway cluster; the socket in our own directory;
    // pg_stat_statements counts each statement where it ran (primary or standby).
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60 -c shared_preload_libraries=pg_stat_statements`;
  /**
   * `pg_ctl start` of the cluster in `dataDir` on a free port; on a port another
   * process bound first, again on another. Answers the port. A failure names the
   * end of the server's log.
   */
  const startOnFreePort = (dataDir: string, name: string, options: string) =>
    onFreePort(async (port) => {
      const log = join(dir, `${name}-${port}.log`);
      try {
        await pgCmd('pg_ctl', [
          '-D',
          dataDir,
          '-l',
          log,
          '-o',
          `${settings(port)} ${options}`,
          '-w',
          'start',
        ]);
      } catch (err) {
        const tail = (await readFile(log, 'utf8').catch(() => ''))
          .trimEnd()
          .split('\n')
          .slice(-10)
          .join('\n');
        const why = `${name} on port ${port} did not start: ${(err as Error).message}; its log:\n${tail}`;
        throw /Address already in use/.test(tail) ? new PortTakenError(why) : new Error(why);
      }
      started.push(dataDir);
      return port;
    });
  const stop = async () => {
    for (const d of started.reverse()) {
      // Immediate: nothing in these clusters is kept; the directory goes next.
      await pgCmd('pg_ctl', ['-D', d, '-m', 'immediate', '-w', 'stop']).catch((err: Error) => {
        console.error(`pg_ctl stop ${d} failed: ${err.message}`);
      });
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await pgCmd('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    // initdb's pg_hba already trusts replication connections from 127.0.0.1.
    const primaryPort = await startOnFreePort(
      primaryDir,
      'primary',
      '-c wal_level=replica -c max_wal_senders=4',
    );
    const primaryUrl = `postgresql://postgres@127.0.0.1:${primaryPort}/${database}`;
    await prepare(primaryUrl);
    await pgCmd('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    const standbyPort = await startOnFreePort(standbyDir, 'standby', '-c hot_standby=on');
    const replicaUrl = `postgresql://postgres@127.0.0.1:${standbyPort}/${database}`;
    const onServer = async <T>(url: string, sql: string): Promise<T | undefined> => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query(sql)).rows[0]?.v as T | undefined;
      } finally {
        await c.end();
      }
    };
    const pair: ReplicaPair = {
      primaryUrl,
      replicaUrl,
      pauseReplay: async () => {
        await onServer(replicaUrl, 'SELECT pg_wal_replay_pause()');
        await waitFor('replay paused', () =>
          onServer<string>(replicaUrl, 'SELECT pg_get_wal_replay_pause_state() AS v').then(
            (s) => s === 'paused',
          ),
        );
      },
      resumeReplay: async () => {
        await onServer(replicaUrl, 'SELECT pg_wal_replay_resume()');
      },
      caughtUp: async () => {
        const target = await onServer<string>(primaryUrl, 'SELECT pg_current_wal_insert_lsn()::text AS v');
        await waitFor('the standby to replay the primary', async () => {
          const replayed = await onServer<boolean>(
            replicaUrl,
            `SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn AS v`,
          );
          return replayed === true;
        });
      },
      stopStandby: async () => {
        await pgCmd('pg_ctl', ['-D', standbyDir, '-m', 'immediate', '-w', 'stop']);
        started.splice(started.indexOf(standbyDir), 1);
      },
      stop,
    };
    await pair.caughtUp();
    return pair;
  } catch (err) {
    await stop();
    throw err;
  }
}
