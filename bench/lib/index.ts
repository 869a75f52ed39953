/** Shared bench helpers: machine info, percentiles, the result line, bench/RESULTS.md. */
export {
  type BenchCheck,
  type BenchResult,
  check,
  type Figure,
  type Figures,
  parseResultLine,
  round,
} from './bench-result.js';
export { type CpuSplit, cpuPerUnit, mergeCpuSplits, startCpuMeter } from './cpu-meter.js';
export { type MachineInfo, machineInfo } from './machine-info.js';
export { percentile, summarize } from './percentile.js';
export { finishBench, printResult, underRunAll } from './print-result.js';
export {
  appendResults,
  recordedChecks,
  resultsSection,
  rewriteSummary,
  summaryTables,
  withSummary,
} from './results-file.js';
