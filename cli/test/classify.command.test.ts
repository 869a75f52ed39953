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

describe('touchbase classify on written messages', () => {
  it('prints the return date and the reasons, and --explain names the deciding rule', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'touchbase-classify-'));
    const ooo = join(dir, 'ooo.eml');
    writeFileSync(
      ooo,
      'From: ana@acme.test\r\nSubject: Automatic reply: hello\r\nDate: Mon, 5 Aug 2024 10:00:00 +0000\r\n' +
        'Auto-Submitted: auto-replied\r\n\r\nI am out of the office until August 12, 2024.\r\n',
    );
    const plain: string[] = [];
    expect(await runClassify([ooo], (l) => plain.push(l))).toBe(0);
    const line = JSON.parse(plain[0]!);
    expect(line).toMatchObject({ class: 'out_of_office', returnDate: '2024-08-13' });
    expect(line.why).toContain('pausing');
    expect(line.decidedBy).toBeUndefined();

    const explained: string[] = [];
    await runClassify([ooo], (l) => explained.push(l), { explain: true });
    const withRule = JSON.parse(explained[0]!);
    expect(withRule.decidedBy).toMatch(/pausing/);
    expect(Array.isArray(withRule.reasons)).toBe(true);
  });
});
