// Round trips per unit of work from the counts bench/lib/round-trips.preload.mjs wrote:
// each second with at least MIN (20) units is one window; windows that ran the same
// statements are one phase (a bench's `opened` load, then its replies), reported per
// unit. A unit is an HTTP request answered, or with a regex argument one statement
// matching it (for the sender: the touch record, say).
//
//   node bench/lib/round-trips-report.mjs <file.counts.jsonl> [unit-regex] [MIN]
import { readFileSync } from 'node:fs';

const [file, unitPattern, minUnits] = process.argv.slice(2);
if (!file) throw new Error('usage: round-trips-report.mjs <file.counts.jsonl> [unit-regex] [min-units]');
const snapshots = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const delta = (before = {}, after = {}) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => v > 0),
  );
const total = (table) => Object.values(table).reduce((s, v) => s + v, 0);
const phases = new Map();
for (let i = 1; i < snapshots.length; i++) {
  const [a, b] = [snapshots[i - 1], snapshots[i]];
  const pg = delta(a.pg, b.pg);
  const redis = delta(a.redis, b.redis);
  const units = unitPattern
    ? total(Object.fromEntries(Object.entries(pg).filter(([k]) => new RegExp(unitPattern).test(k))))
    : b.http - a.http;
  if (units < Number(minUnits ?? 20)) continue;
  const signature = Object.keys(pg)
    .filter((k) => pg[k] / units > 0.3)
    .sort()
    .join('|');
  const phase = phases.get(signature) ?? { units: 0, windows: 0, pg: {}, redis: {} };
  phase.units += units;
  phase.windows++;
  for (const [k, v] of Object.entries(pg)) phase.pg[k] = (phase.pg[k] ?? 0) + v;
  for (const [k, v] of Object.entries(redis)) phase.redis[k] = (phase.redis[k] ?? 0) + v;
  phases.set(signature, phase);
}
const per = (v, units) => (v / units).toFixed(2);
for (const p of phases.values()) {
  console.log(
    `\n${p.windows} s, ${p.units} units: ${per(total(p.pg), p.units)} PostgreSQL statements and ${per(total(p.redis), p.units)} Redis commands a unit`,
  );
  for (const [k, v] of Object.entries(p.pg)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 20))
    console.log(`  pg    ${per(v, p.units)}  ${k}`);
  for (const [k, v] of Object.entries(p.redis)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 10))
    console.log(`  redis ${per(v, p.units)}  ${k}`);
}
