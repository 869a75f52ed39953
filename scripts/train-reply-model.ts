// Trains the reply model (packages/core/src/classify/reply-model.ts) on every allowed
// labelled reply set (scripts/reply-model-data.ts: never holdout-8/holdout-9) and writes
// it to packages/core/src/classify/reply-model.weights.ts. Deterministic: the same
// fixtures give the same file byte for byte (a unit test checks it).
// Usage: npx tsx scripts/train-reply-model.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replyModelModule } from './reply-model-data.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(repo, 'packages/core/src/classify/reply-model.weights.ts');
const module = replyModelModule(join(repo, 'test', 'fixtures'));
if (process.argv.includes('--check')) {
  const same = readFileSync(target, 'utf8') === module;
  console.log(same ? 'reply model is up to date' : 'reply model differs from its fixtures: retrain');
  process.exit(same ? 0 : 1);
}
writeFileSync(target, module);
console.log(`wrote ${target}: ${Buffer.byteLength(module)} bytes`);
