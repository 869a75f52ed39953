import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bounceCorpusDir, IN_REPO_CORPORA_DIR } from '../src/corpus.js';

describe('bounceCorpusDir', () => {
  it('is the copy in the repository, with its labels and license', () => {
    const dir = bounceCorpusDir({});
    expect(dir.startsWith(IN_REPO_CORPORA_DIR)).toBe(true);
    expect(existsSync(`${dir}labels.json`)).toBe(true);
    expect(existsSync(`${dir}LICENSE`)).toBe(true);
  });

  it('follows TOUCHBASE_CORPORA_DIR, and names it when it holds no corpus', () => {
    expect(bounceCorpusDir({ TOUCHBASE_CORPORA_DIR: IN_REPO_CORPORA_DIR })).toBe(
      `${IN_REPO_CORPORA_DIR}/bounces/`,
    );
    expect(() => bounceCorpusDir({ TOUCHBASE_CORPORA_DIR: '/nonexistent' })).toThrow(/TOUCHBASE_CORPORA_DIR/);
  });
});
