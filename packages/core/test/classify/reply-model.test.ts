import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replyModelModule } from '../../../../scripts/reply-model-data.js';
import type { ReplyClass, ReplyClassification } from '../../src/classify/classification.types.js';
import { classifyReplyTextByRules } from '../../src/classify/classify-reply-text.js';
import { classifyReplyText } from '../../src/classify/index.js';
import {
  MODEL_CLASSES,
  type ModelClass,
  modelFeatures,
  modelText,
  parseModel,
  type ReplyModelScorer,
  serializeModel,
  trainReplyModel,
} from '../../src/classify/reply-model.js';
import {
  combineReadings,
  modelInputOf,
  SECOND_OPINION_POLICY,
  shippedReplyModel,
  withSecondOpinion,
} from '../../src/classify/reply-second-opinion.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** A model sure, whatever it reads, that the reply is of one class. */
function onlyEver(label: ModelClass): Pick<ReplyModelScorer, 'opinion'> {
  return { opinion: () => sure(label) };
}

function sure(replyClass: ModelClass) {
  return { replyClass, confidence: 1, probabilities: MODEL_CLASSES.map((c) => (c === replyClass ? 1 : 0)) };
}

describe('reply model', () => {
  it('is reproduced byte for byte from the fixtures by the training script', () => {
    const shipped = readFileSync(join(repo, 'packages/core/src/classify/reply-model.weights.ts'), 'utf8');
    expect(replyModelModule(join(repo, 'test', 'fixtures')) === shipped).toBe(true);
  }, 60_000);

  it('serialises and parses back to the same model', () => {
    const model = trainReplyModel(
      [
        { text: 'bitte nehmen sie mich aus dem verteiler', label: 'unsubscribe' },
        { text: 'kein interesse danke', label: 'not_interested' },
      ],
      { minDocs: 1, alpha: 0.5, maxFeatures: 0 },
    );
    const text = serializeModel(model);
    expect(serializeModel(parseModel(text))).toBe(text);
  });

  it('reads the same text the same way every time, with probabilities that sum to 1', () => {
    const input = modelInputOf({ subject: 'Re: offer', text: 'Envoyez-moi la grille tarifaire svp.' });
    const a = shippedReplyModel().opinion(input);
    const b = shippedReplyModel().opinion(input);
    expect(a).toEqual(b);
    expect(a.probabilities.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 9);
    expect(MODEL_CLASSES).toContain(a.replyClass);
  });

  it('reads folded text: case, accents, digits and addresses do not make new features', () => {
    expect(modelText('Réunion à 10h, écrivez à Jane@Acme.example')).toBe(
      modelText('reunion a 99h, ecrivez a bob@x.example'),
    );
    expect(modelFeatures('ab')).toEqual(['w ab', 'c  ab', 'c ab ', 'c  ab ']);
  });

  it("reads the quoted sales e-mail out: only the reply's own words count", () => {
    const own = modelInputOf({
      text: 'Not for us.\n\nOn Mon, 1 Jun 2026, Sales <s@v.example> wrote:\n> Can we book a meeting?',
    });
    expect(own).not.toContain('meeting');
  });
});

const ALL: ReplyClass[] = [...MODEL_CLASSES, 'bounce'];
const STOP: ReplyClass[] = ['unsubscribe', 'not_interested', 'wrong_person', 'bounce'];

describe('the model second opinion (safety rule)', () => {
  it('never turns any reading into out_of_office or bounce, and never a stop class into a pausing one', () => {
    for (const rules of ALL)
      for (const decidedBy of ['no rule matched', `${rules}: a rule`])
        for (const proposed of MODEL_CLASSES) {
          const got = combineReadings({ replyClass: rules, decidedBy }, sure(proposed), {
            overFallback: 0,
            overRule: 0,
          });
          const final = got ?? rules;
          if (final === 'out_of_office' || final === 'bounce')
            expect(final, `${rules} + model ${proposed}`).toBe(rules);
          if (STOP.includes(rules)) expect(final, `${rules} + model ${proposed}`).not.toBe('out_of_office');
        }
  });

  it('never overrules bounce, out_of_office, an unsubscribe phrase or a person who left', () => {
    for (const rules of ['bounce', 'out_of_office', 'unsubscribe'] as const)
      for (const proposed of MODEL_CLASSES)
        expect(
          combineReadings({ replyClass: rules, decidedBy: 'x' }, sure(proposed), {
            overFallback: 0,
            overRule: 0,
          }),
        ).toBeUndefined();
    const left = { replyClass: 'wrong_person' as const, decidedBy: 'left the company: wrong_person: x' };
    expect(combineReadings(left, sure('interested'), { overFallback: 0, overRule: 0 })).toBeUndefined();
  });

  it('end to end: a model sure of out_of_office cannot pause a reply the rules read otherwise', () => {
    const absentMinded = onlyEver('out_of_office');
    for (const text of [
      'Who are you?',
      'Not interested, thanks.',
      'Please remove me from your list.',
      'Sounds good, send details.',
    ]) {
      const rules = classifyReplyTextByRules({ text });
      expect(rules.replyClass).not.toBe('out_of_office');
      expect(
        withSecondOpinion({ text }, rules, absentMinded, { overFallback: 0, overRule: 0 }).replyClass,
      ).toBe(rules.replyClass);
    }
  });

  it("end to end: a model sure of interest cannot overrule the rules' unsubscribe or bounce", () => {
    const keen = onlyEver('interested');
    const unsubscribe = { text: 'Please remove me from your mailing list.' };
    const rules = classifyReplyTextByRules(unsubscribe);
    expect(rules.replyClass).toBe('unsubscribe');
    expect(withSecondOpinion(unsubscribe, rules, keen, { overFallback: 0, overRule: 0 }).replyClass).toBe(
      'unsubscribe',
    );
    const bounce: ReplyClassification = { replyClass: 'bounce', sentiment: 'neutral', why: [] };
    expect(withSecondOpinion({ text: 'x' }, bounce, keen, { overFallback: 0, overRule: 0 })).toBe(bounce);
  });

  it('says in why and decidedBy when the model decided, with what the rules had said', () => {
    const text = 'Who are you?';
    const rules = classifyReplyTextByRules({ text });
    expect(rules.replyClass).toBe('neutral');
    const got = withSecondOpinion({ text }, rules, onlyEver('not_interested'), SECOND_OPINION_POLICY);
    expect(got.replyClass).toBe('not_interested');
    expect(got.sentiment).toBe('negative');
    expect(got.decidedBy).toMatch(/^model: not_interested \(confidence 1\.00\) over the rules' neutral/);
    expect(got.why[0]).toBe(got.decidedBy);
  });

  it('a wrong_person read by the model carries the referral the reply names', () => {
    const text = 'Please write to jane.doe@acme.example about this.';
    const rules = {
      ...classifyReplyTextByRules({ text }),
      replyClass: 'neutral' as const,
      decidedBy: 'no rule matched',
    };
    const got = withSecondOpinion({ text }, rules, onlyEver('wrong_person'));
    expect(got.replyClass).toBe('wrong_person');
    expect(got.referral).toBe('jane.doe@acme.example');
  });

  it('the shipped classifier consults the model (classifyReplyText = rules + second opinion)', () => {
    const input = { text: 'Send it over, happy to have a look at what you have.' };
    const expected = withSecondOpinion(input, classifyReplyTextByRules(input));
    expect(classifyReplyText(input)).toEqual(expected);
  });
});
