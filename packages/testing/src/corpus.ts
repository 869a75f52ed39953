import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the labelled bounce corpus lives in the repository. */
export const IN_REPO_CORPORA_DIR = join(repoRoot, 'test', 'fixtures', 'corpora');

/**
 * The folder (with a trailing `/`) of the labelled bounce corpus: real bounce,
 * complaint and auto-reply messages with their expected reading in `labels.json`.
 * It ships in the repository (`test/fixtures/corpora/bounces`, BSD-2-Clause, see its
 * LICENSE), so a clone runs the tests that need it; TOUCHBASE_CORPORA_DIR points at
 * another copy of the corpora folder (one with a `bounces/` inside).
 *
 * @throws Error naming TOUCHBASE_CORPORA_DIR when the folder it names has no `bounces/labels.json`.
 */
export function bounceCorpusDir(env: Record<string, string | undefined> = process.env): string {
  const override = env.TOUCHBASE_CORPORA_DIR;
  const dir = join(override || IN_REPO_CORPORA_DIR, 'bounces');
  if (!existsSync(join(dir, 'labels.json'))) {
    throw new Error(
      override
        ? `TOUCHBASE_CORPORA_DIR: ${override} has no bounces/labels.json`
        : `the bounce corpus is missing from ${dir} (restore it from git)`,
    );
  }
  return `${dir}/`;
}
