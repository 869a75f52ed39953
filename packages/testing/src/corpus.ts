import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The folder of the shared bounce corpus (real messages with labels), which lives
 * beside the repository, not in it: TOUCHBASE_CORPORA_DIR, else `../shared/corpora`
 * next to the checkout, else the team machines' `/work/shared/corpora`. Null when
 * none exists, so the tests that need it say they skip and why.
 */
export function bounceCorpusDir(): string | null {
  const candidates = [
    process.env.TOUCHBASE_CORPORA_DIR,
    join(repoRoot, '..', 'shared', 'corpora'),
    '/work/shared/corpora',
  ].filter((c): c is string => Boolean(c));
  for (const base of candidates) {
    const dir = join(base, 'bounces');
    if (existsSync(join(dir, 'labels.json'))) return `${dir}/`;
  }
  return null;
}
