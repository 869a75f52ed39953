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

interface Tally {
  total: number;
  ok: number;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const load = (name: string): Fixture[] =>
  JSON.parse(readFileSync(resolve(repoRoot, 'test/fixtures/replies', name), 'utf8')) as Fixture[];

/** Classifies every fixture, prints accuracy per class and language and the misses, returns the rates. */
function measure(
  title: string,
  fixtures: Fixture[],
): { overall: number; rate: (label: ReplyClass) => number } {
  const perClass = new Map<string, Tally>();
  const perLang = new Map<string, Tally>();
  const misses: string[] = [];
  for (const fixture of fixtures) {
    const got = classifyReplyText({ subject: fixture.subject, text: fixture.text, headers: fixture.headers });
    // The corpus predates meeting_request: a request to meet is interest, asked for in so many words.
    const ok =
      got.replyClass === fixture.label ||
      (fixture.label === 'interested' && got.replyClass === 'meeting_request');
    for (const [map, key] of [
      [perClass, fixture.label],
      [perLang, fixture.lang],
    ] as const) {
      const tally = map.get(key) ?? { total: 0, ok: 0 };
      tally.total++;
      if (ok) tally.ok++;
      map.set(key, tally);
    }
    if (!ok) {
      const firstLine = fixture.text.split('\n').find((l) => l.trim()) ?? '';
      misses.push(
        `${fixture.id} expected ${fixture.label}, got ${got.replyClass}: "${firstLine.slice(0, 70)}" — ${got.why.join('; ')}`,
      );
    }
  }
  const pct = (t: Tally): string => `${((100 * t.ok) / t.total).toFixed(1)}% (${t.ok}/${t.total})`;
  const total = fixtures.length;
  const correct = total - misses.length;
  // The scores and misses are for someone tuning the classifier: TEST_VERBOSE=1 prints them.
  if (process.env.TEST_VERBOSE)
    console.log(
      [
        `${title}: ${total} replies, overall ${pct({ total, ok: correct })}`,
        ...[...perClass].sort().map(([cls, t]) => `  class ${cls.padEnd(15)} ${pct(t)}`),
        ...[...perLang].sort().map(([lang, t]) => `  lang  ${lang.padEnd(15)} ${pct(t)}`),
        `  misses (${misses.length}):`,
        ...misses.map((m) => `    ${m}`),
      ].join('\n'),
    );
  return {
    overall: correct / total,
    rate: (label) => {
      const t = perClass.get(label);
      return t ? t.ok / t.total : 0;
    },
  };
}

describe('reply corpus (test/fixtures/replies/replies.json)', () => {
  const fixtures = load('replies.json');

  it('has at least 300 labelled replies in English, German, French and Spanish', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(300);
    expect(new Set(fixtures.map((f) => f.lang))).toEqual(new Set(['en', 'de', 'fr', 'es']));
    expect(new Set(fixtures.map((f) => f.id)).size).toBe(fixtures.length);
  });

  it('classifies >= 95% of unsubscribe, bounce and out_of_office and >= 85% overall', () => {
    const result = measure('reply corpus', fixtures);
    for (const label of ['unsubscribe', 'bounce', 'out_of_office'] as const) {
      expect(result.rate(label), label).toBeGreaterThanOrEqual(0.95);
    }
    expect(result.overall).toBeGreaterThanOrEqual(0.85);
  });
});

// The rules were written while looking at replies.json, so its accuracy flatters
// them. replies-heldout.json was written after the rules were frozen and has never
// been used to change them: its accuracy is the honest estimate for new wordings.
// The bars below are regression floors under the measured values, not targets;
// do not edit rules to fit these fixtures, or the set stops measuring anything.
describe('held-out replies (test/fixtures/replies/replies-heldout.json)', () => {
  it('keeps the must-not-miss classes and overall accuracy above their floors', () => {
    const result = measure('held-out replies', load('replies-heldout.json'));
    for (const label of ['unsubscribe', 'bounce', 'out_of_office'] as const) {
      expect(result.rate(label), label).toBeGreaterThanOrEqual(0.9);
    }
    expect(result.overall).toBeGreaterThanOrEqual(0.65);
  });
});
