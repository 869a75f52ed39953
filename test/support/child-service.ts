import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A service's main.ts run as its own process (tsx), so a test can SIGKILL it. An
 * unexpected non-zero exit prints the child's stderr; with `expectFailure` (a test
 * that checks a boot error) it stays quiet unless TEST_VERBOSE is set.
 */
export function spawnService(
  app: string,
  env: Record<string, string>,
  opts: { expectFailure?: boolean } = {},
): ChildProcess {
  return spawnScript(app, `apps/${app}/src/main.ts`, [], env, opts);
}

/**
 * A TypeScript entry point of the repository (`cli/src/main.ts` with `['sandbox']`) run
 * as its own process under tsx; its stderr is printed if it exits with an error
 * (unless `expectFailure`, then only with TEST_VERBOSE).
 */
export function spawnScript(
  label: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  opts: { expectFailure?: boolean } = {},
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0 && signal !== 'SIGKILL' && (!opts.expectFailure || process.env.TEST_VERBOSE))
      process.stderr.write(`[${label}] exited ${code}: ${stderr}\n`);
  });
  return child;
}

/** Kills with SIGKILL (no shutdown, no cleanup) and waits for the exit. */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Waits for a child's exit: its code and all it wrote to stderr (a boot error's message). */
export function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}
