import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bounceCorpusDir } from '@touchbase/testing';
import { describe, expect, it } from 'vitest';
import { type Classification, classifyRawMessage } from '../../src/classify/index.js';

// The corpus ships in the repository (test/fixtures/corpora), so this always runs.
const corpusDir = bounceCorpusDir();

interface Label {
  class: Classification['class'];
  hard: boolean;
  reason: string;
  status: string;
}

describe(`bounce corpus (${corpusDir})`, () => {
  it('agrees with the labels on class (>= 97%) and hard (>= 90%)', async () => {
    const labels = JSON.parse(readFileSync(join(corpusDir, 'labels.json'), 'utf8')) as Record<string, Label>;
    const files = Object.keys(labels).sort();
    const perClass = new Map<string, { total: number; ok: number }>();
    const misses: string[] = [];
    let classOk = 0;
    let hardOk = 0;
    let reasonOk = 0;
    let hardTruePositives = 0;
    let hardPredicted = 0;
    let hardActual = 0;

    for (const file of files) {
      const label = labels[file]!;
      const got = await classifyRawMessage(readFileSync(join(corpusDir, file)));
      const stats = perClass.get(label.class) ?? { total: 0, ok: 0 };
      stats.total++;
      if (got.class === label.class) {
        stats.ok++;
        classOk++;
      }
      perClass.set(label.class, stats);
      if (got.hard === label.hard) hardOk++;
      if (got.reason === label.reason) reasonOk++;
      if (got.hard) hardPredicted++;
      if (label.hard) hardActual++;
      if (got.hard && label.hard) hardTruePositives++;
      if (got.class !== label.class || got.hard !== label.hard) {
        misses.push(
          `${file}: expected ${label.class}/${label.hard ? 'hard' : 'soft'}/${label.reason}/${label.status}, ` +
            `got ${got.class}/${got.hard ? 'hard' : 'soft'}/${got.reason}/${got.status} — ${got.why.join('; ')}`,
        );
      }
    }

    const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)}%`;
    const lines = [
      `bounce corpus: ${files.length} messages`,
      `  class  ${pct(classOk, files.length)} (${classOk}/${files.length})`,
      `  hard   ${pct(hardOk, files.length)} (${hardOk}/${files.length}); precision ${pct(hardTruePositives, hardPredicted)}, recall ${pct(hardTruePositives, hardActual)}`,
      `  reason ${pct(reasonOk, files.length)} (informative, not required)`,
      ...[...perClass].map(
        ([cls, s]) => `  class ${cls.padEnd(14)} ${pct(s.ok, s.total)} (${s.ok}/${s.total})`,
      ),
      `  misses (${misses.length}):`,
      ...misses.map((m) => `    ${m}`),
    ];
    // The scores and the miss list are for someone working on the classifier, not for
    // every run of a passing suite: TEST_VERBOSE=1 prints them.
    if (process.env.TEST_VERBOSE) console.log(lines.join('\n'));

    expect(classOk / files.length).toBeGreaterThanOrEqual(0.97);
    expect(hardOk / files.length).toBeGreaterThanOrEqual(0.9);
  });
});
