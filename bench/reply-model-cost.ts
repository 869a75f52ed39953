// CPU per reply of the reply classifier with and without the learned model's second
// opinion, A/B interleaved in one process over the allowed reply sets (never
// holdout-8/9). Not a *.bench.ts (no RESULTS.md entry): a quick figure for issue 17.
// Usage: npx tsx bench/reply-model-cost.ts [rounds]
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  classifyReplyText,
  classifyReplyTextByRules,
} from '../packages/core/src/classify/classify-reply-text.js';
import { modelInputOf, shippedReplyModel } from '../packages/core/src/classify/reply-second-opinion.js';
import { loadReplySets } from '../scripts/reply-model-data.js';

const rounds = Number(process.argv[2] ?? 5);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const inputs = loadReplySets(root).flatMap((s) =>
  s.fixtures.map((f) => ({ subject: f.subject, text: f.text, headers: f.headers })),
);
const load = process.cpuUsage();
const t0 = performance.now();
shippedReplyModel();
const loadMs = performance.now() - t0;
const loadCpu = process.cpuUsage(load);
const cpu = (fn: () => void): number => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return used.user + used.system;
};
const totals = { rules: 0, combined: 0, modelOnly: 0 };
for (const i of inputs) classifyReplyText(i); // warm-up
for (let r = 0; r < rounds; r++) {
  totals.rules += cpu(() => {
    for (const i of inputs) classifyReplyTextByRules(i);
  });
  totals.combined += cpu(() => {
    for (const i of inputs) classifyReplyText(i);
  });
  totals.modelOnly += cpu(() => {
    for (const i of inputs) shippedReplyModel().opinion(modelInputOf(i));
  });
}
const per = (us: number) => (us / (rounds * inputs.length)).toFixed(1);
console.log(
  `loadavg ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${inputs.length} replies x ${rounds} rounds`,
);
console.log(
  `model parse on first use: ${loadMs.toFixed(0)} ms wall, ${((loadCpu.user + loadCpu.system) / 1000).toFixed(0)} ms CPU; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
);
console.log(
  `CPU per reply: rules ${per(totals.rules)} us, rules + model ${per(totals.combined)} us, model alone (strip + features + score) ${per(totals.modelOnly)} us`,
);
