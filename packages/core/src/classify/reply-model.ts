import { foldText } from './text-fold.js';

/**
 * A learned second opinion on a reply's class: multinomial naive Bayes over the
 * reply's own words (word unigrams and bigrams, character 3-5-grams inside words),
 * trained offline by scripts/train-reply-model.ts from the labelled fixture sets and
 * shipped as a compact text module (reply-model.weights.ts). Pure: no I/O.
 *
 * The model knows only the human reply classes and out_of_office (so that an absence
 * notice looks like one to it, not like a decline); it never decides out_of_office or
 * bounce: see reply-second-opinion.ts for how its reading is used.
 */

/** The classes the model reads, in the order of its count columns. */
export const MODEL_CLASSES = [
  'unsubscribe',
  'not_interested',
  'wrong_person',
  'interested',
  'meeting_request',
  'neutral',
  'out_of_office',
] as const;
export type ModelClass = (typeof MODEL_CLASSES)[number];

/** The model's reading of one text: the most likely class and its posterior probability. */
export interface ModelOpinion {
  replyClass: ModelClass;
  /** Posterior probability of `replyClass`, 0..1. */
  confidence: number;
  /** Posterior probability of every class, in MODEL_CLASSES order. */
  probabilities: number[];
}

/**
 * The text the model reads: the reply's own words (quote and signature already
 * stripped by the caller), folded (lower case, accents removed), links removed.
 */
export function modelText(ownText: string, freshSubject = ''): string {
  const text = `${freshSubject} ${ownText}`.replace(/\b(https?:\/\/|www\.)\S+/gi, ' ');
  return foldText(text)
    .replace(/\S+@\S+/g, ' @addr ')
    .replace(/\d+/g, '0');
}

/** The features of a model text, each once (presence, not counts: replies are short). */
export function modelFeatures(text: string): string[] {
  const words = text.match(/[\p{L}\p{N}@']+/gu) ?? [];
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    out.add(`w ${w}`);
    if (i + 1 < words.length) out.add(`b ${w} ${words[i + 1]}`);
    const padded = ` ${w} `;
    for (let n = 3; n <= 5; n++) {
      for (let s = 0; s + n <= padded.length; s++) out.add(`c ${padded.slice(s, s + n)}`);
    }
  }
  return [...out];
}

/** A trained model: per-class document counts and, per kept feature, per-class counts. */
export interface ReplyModel {
  classes: readonly ModelClass[];
  /** Documents per class. */
  docs: number[];
  /** Smoothing added to every count. */
  alpha: number;
  /** Feature -> documents per class containing it. */
  counts: Map<string, number[]>;
}

/** Serialises a model as text: one header line, then `feature\tc0,c1,...` lines, sorted. */
export function serializeModel(model: ReplyModel): string {
  const lines = [`v1\t${model.alpha}\t${model.classes.join(',')}\t${model.docs.join(',')}`];
  const keys = [...model.counts.keys()].sort();
  for (const key of keys) lines.push(`${key}\t${(model.counts.get(key) as number[]).join(',')}`);
  return lines.join('\n');
}

export function parseModel(text: string): ReplyModel {
  const [head, ...rows] = text.split('\n');
  const [version, alpha, classes, docs] = (head ?? '').split('\t');
  if (version !== 'v1') throw new Error(`reply model: unknown format ${version}`);
  const counts = new Map<string, number[]>();
  for (const row of rows) {
    const tab = row.lastIndexOf('\t');
    counts.set(
      row.slice(0, tab),
      row
        .slice(tab + 1)
        .split(',')
        .map(Number),
    );
  }
  return {
    alpha: Number(alpha),
    classes: (classes ?? '').split(',') as ModelClass[],
    docs: (docs ?? '').split(',').map(Number),
    counts,
  };
}

/**
 * Bernoulli-style multinomial naive Bayes scoring over present features: for each
 * class, log prior + sum over the text's known features of log P(feature | class).
 * Features the model does not know are ignored.
 */
export class ReplyModelScorer {
  private readonly logPrior: number[];
  private readonly logLikelihood = new Map<string, Float64Array>();

  constructor(readonly model: ReplyModel) {
    const total = model.docs.reduce((a, b) => a + b, 0);
    const k = model.classes.length;
    this.logPrior = model.docs.map((d) => Math.log((d + 1) / (total + k)));
    const featureTotals = new Array<number>(k).fill(0);
    for (const row of model.counts.values())
      for (let c = 0; c < k; c++) featureTotals[c] = (featureTotals[c] as number) + (row[c] as number);
    const vocabulary = model.counts.size;
    const denominators = featureTotals.map((t) => Math.log(t + model.alpha * vocabulary));
    for (const [feature, row] of model.counts) {
      const ll = new Float64Array(k);
      for (let c = 0; c < k; c++)
        ll[c] = Math.log((row[c] as number) + model.alpha) - (denominators[c] as number);
      this.logLikelihood.set(feature, ll);
    }
  }

  opinion(text: string): ModelOpinion {
    const k = this.model.classes.length;
    const scores = [...this.logPrior];
    let known = 0;
    for (const feature of modelFeatures(text)) {
      const ll = this.logLikelihood.get(feature);
      if (!ll) continue;
      known++;
      for (let c = 0; c < k; c++) scores[c] = (scores[c] as number) + (ll[c] as number);
    }
    // Naive Bayes sums many correlated features (a word and its character grams); its
    // posteriors are far too sure. Scores are tempered by the number of features seen,
    // so confidence reads as a calibrated-ish margin that a threshold can be chosen on.
    const temper = Math.max(1, Math.sqrt(known));
    const max = Math.max(...scores);
    const exp = scores.map((s) => Math.exp((s - max) / temper));
    const sum = exp.reduce((a, b) => a + b, 0);
    const probabilities = exp.map((e) => e / sum);
    let best = 0;
    for (let c = 1; c < k; c++) if ((probabilities[c] as number) > (probabilities[best] as number)) best = c;
    return {
      replyClass: this.model.classes[best] as ModelClass,
      confidence: probabilities[best] as number,
      probabilities,
    };
  }
}

/** One labelled text for training. */
export interface TrainingExample {
  text: string;
  label: ModelClass;
}

export interface TrainingOptions {
  /** A feature is kept when at least this many training documents contain it. */
  minDocs: number;
  alpha: number;
  /** At most this many features are kept, the most class-informative first (0: no cap). */
  maxFeatures: number;
}

export const DEFAULT_TRAINING: TrainingOptions = { minDocs: 3, alpha: 0.5, maxFeatures: 30000 };

/** Trains a model: deterministic (features sorted, ties broken by name). */
export function trainReplyModel(
  examples: readonly TrainingExample[],
  options: TrainingOptions = DEFAULT_TRAINING,
): ReplyModel {
  const classes = MODEL_CLASSES;
  const k = classes.length;
  const docs = new Array<number>(k).fill(0);
  const counts = new Map<string, number[]>();
  for (const example of examples) {
    const c = classes.indexOf(example.label);
    if (c < 0) continue;
    docs[c] = (docs[c] as number) + 1;
    for (const feature of modelFeatures(example.text)) {
      let row = counts.get(feature);
      if (!row) {
        row = new Array<number>(k).fill(0);
        counts.set(feature, row);
      }
      row[c] = (row[c] as number) + 1;
    }
  }
  const total = docs.reduce((a, b) => a + b, 0);
  const kept: [string, number][] = [];
  for (const [feature, row] of counts) {
    const df = row.reduce((a, b) => a + b, 0);
    if (df < options.minDocs) continue;
    kept.push([feature, informationGain(row, docs, df, total)]);
  }
  kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const cap = options.maxFeatures > 0 ? kept.slice(0, options.maxFeatures) : kept;
  const pruned = new Map<string, number[]>();
  for (const [feature] of cap) pruned.set(feature, counts.get(feature) as number[]);
  return { classes, docs, alpha: options.alpha, counts: pruned };
}

/** Mutual information between a feature's presence and the class, in nats. */
function informationGain(row: number[], docs: number[], df: number, total: number): number {
  let gain = 0;
  for (let c = 0; c < row.length; c++) {
    const present = row[c] as number;
    const absent = (docs[c] as number) - present;
    const pc = (docs[c] as number) / total;
    if (present > 0) gain += (present / total) * Math.log(present / total / ((df / total) * pc));
    if (absent > 0) gain += (absent / total) * Math.log(absent / total / (((total - df) / total) * pc));
  }
  // Rounded so that the ranking (and the shipped module) does not hang on the last bit.
  return Math.round(gain * 1e9) / 1e9;
}
