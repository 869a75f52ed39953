// The rules' reading of each independent writer's set AS THE RULES WERE when the set
// arrived (before any rule was tuned on it), so that the cross-validation compares the
// model with rules that had not seen the set either. The rules of those commits are
// extracted with `git archive <commit> packages/core/src/classify` into a scratch
// directory (first argument); the readings go to test/fixtures/replies-multilingual/
// first-sight-rules.json (id -> class and deciding rule). Never reads holdout-8/9.
// Usage: npx tsx scripts/reply-rules-first-sight.ts /tmp/rm-rules
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadReplySets } from './reply-model-data.js';

// Set -> the commit whose rules first measured it (test/fixtures/replies-multilingual/README.md).
export const FIRST_SIGHT: Record<string, string> = {
  'replies-multilingual/dev-4.json': 'c123b6f',
  'replies-multilingual/holdout-4.json': 'c123b6f',
  'replies-multilingual/holdout-5.json': '5940392',
  'replies-multilingual/holdout-6.json': '9f09f16',
  'replies-multilingual/holdout-7.json': '312b902',
};

const scratch = process.argv[2] ?? '/tmp/rm-rules';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const out: Record<string, Record<string, { replyClass: string; decidedBy?: string }>> = {};
for (const [name, commit] of Object.entries(FIRST_SIGHT)) {
  const mod = (await import(
    pathToFileURL(join(scratch, commit, 'packages/core/src/classify/classify-reply-text.ts')).href
  )) as { classifyReplyText: (i: object) => { replyClass: string; decidedBy?: string } };
  const [set] = loadReplySets(root, [name]);
  const readings: Record<string, { replyClass: string; decidedBy?: string }> = {};
  for (const f of set?.fixtures ?? []) {
    const r = mod.classifyReplyText({ subject: f.subject, text: f.text, headers: f.headers });
    readings[f.id] = { replyClass: r.replyClass, ...(r.decidedBy ? { decidedBy: r.decidedBy } : {}) };
  }
  out[name] = readings;
}
writeFileSync(
  join(root, 'replies-multilingual', 'first-sight-rules.json'),
  `${JSON.stringify(out, null, 1)}\n`,
);
