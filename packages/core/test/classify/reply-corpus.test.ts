import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyReplyText, type ReplyClass } from '../../src/classify/index.js';

interface Fixture {
  id: string;
  lang: 'en' | 'de' | 'fr' | 'es';
  subject: string;
  text: string;
  headers?: Record<string, string>;
  label: ReplyClass;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixtures = JSON.parse(
  readFileSync(resolve(repoRoot, 'test/fixtures/replies/replies.json'), 'utf8'),
) as Fixture[];

describe('reply corpus (test/fixtures/replies/replies.json)', () => {
  it('has at least 300 labelled replies in English, German, French and Spanish', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(300);
    expect(new Set(fixtures.map((f) => f.lang))).toEqual(new Set(['en', 'de', 'fr', 'es']));
    expect(new Set(fixtures.map((f) => f.id)).size).toBe(fixtures.length);
  });

  it('classifies >= 95% of unsubscribe, bounce and out_of_office and >= 85% overall', () => {
    const perClass = new Map<string, { total: number; ok: number }>();
    const perLang = new Map<string, { total: number; ok: number }>();
    const misses: string[] = [];
    for (const fixture of fixtures) {
      const got = classifyReplyText({ subject: fixture.subject, text: fixture.text, headers: fixture.headers });
      const ok = got.replyClass === fixture.label;
      for (const [map, key] of [
        [perClass, fixture.label],
        [perLang, fixture.lang],
      ] as const) {
        const stats = map.get(key) ?? { total: 0, ok: 0 };
        stats.total++;
        if (ok) stats.ok++;
        map.set(key, stats);
      }
      if (!ok) {
        const firstLine = fixture.text.split('\n').find((l) => l.trim()) ?? '';
        misses.push(`${fixture.id} expected ${fixture.label}, got ${got.replyClass}: "${firstLine.slice(0, 70)}" — ${got.why.join('; ')}`);
      }
    }

    const rate = (s: { total: number; ok: number } | undefined): number => (s ? s.ok / s.total : 0);
    const pct = (s: { total: number; ok: number }): string => `${(100 * rate(s)).toFixed(1)}% (${s.ok}/${s.total})`;
    const total = fixtures.length;
    const correct = total - misses.length;
    console.log(
      [
        `reply corpus: ${total} replies, overall ${pct({ total, ok: correct })}`,
        ...[...perClass].sort().map(([cls, s]) => `  class ${cls.padEnd(15)} ${pct(s)}`),
        ...[...perLang].sort().map(([lang, s]) => `  lang  ${lang.padEnd(15)} ${pct(s)}`),
        `  misses (${misses.length}):`,
        ...misses.map((m) => `    ${m}`),
      ].join('\n'),
    );

    for (const cls of ['unsubscribe', 'bounce', 'out_of_office']) {
      expect(rate(perClass.get(cls)), cls).toBeGreaterThanOrEqual(0.95);
    }
    expect(correct / total).toBeGreaterThanOrEqual(0.85);
  });
});
