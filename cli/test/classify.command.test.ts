import { bounceCorpusDir } from '@touchbase/testing';
import { describe, expect, it } from 'vitest';
import { runClassify } from '../src/commands/classify.command.js';

const corpus = bounceCorpusDir();

describe('touchbase classify', () => {
  it('prints one JSON line per file with class, hard, status, reason and why; a missing file is an error line', async () => {
    const lines: string[] = [];
    const code = await runClassify(
      [`${corpus}arf-01.eml`, `${corpus}lhost-activehunter-01.eml`, `${corpus}does-not-exist.eml`],
      (l) => lines.push(l),
    );
    expect(code).toBe(1);
    const [arf, bounce, missing] = lines.map((l) => JSON.parse(l));
    expect(Object.keys(arf)).toEqual(
      expect.arrayContaining(['file', 'class', 'hard', 'status', 'reason', 'why']),
    );
    expect(arf.class).toBe('complaint');
    expect(bounce).toMatchObject({ class: 'bounce', hard: true, status: '5.1.1' });
    expect(missing.error).toBeTruthy();
  });
});
