import { z } from 'zod';
import { TemplateSchema } from '../templates/index.js';
import { TextSchema } from '../text/safe-text.js';
import { DurationSchema } from '../time/index.js';

/** One A/B variant of a step's copy. */
export const StepVariantSchema = z.object({
  subject: TemplateSchema.describe('Subject template; follow-ups reuse the first subject as `Re: …`'),
  body: TemplateSchema.describe('Body template with {{variables}} and {{variable|fallback}}'),
});

/** One touch of a sequence. */
export const SequenceStepSchema = z
  .object({
    channel: z.literal('email').default('email'),
    subject: TemplateSchema,
    body: TemplateSchema,
    /** Wait after this touch before the next one (after the last: before the enrollment is exhausted). */
    wait: DurationSchema.default('0s'),
    variants: z.array(StepVariantSchema).max(5).optional().describe('Extra A/B variants beside subject/body'),
  })
  .strict();

/** The steps of one sequence version, as the API accepts and the database stores them. */
export const SequenceStepsSchema = z.array(SequenceStepSchema).min(1).max(30);

export const SequenceDefinitionSchema = z
  .object({
    name: TextSchema.trim().min(1).max(200),
    steps: SequenceStepsSchema,
  })
  .strict();

export type SequenceStep = z.infer<typeof SequenceStepSchema>;
export type SequenceDefinition = z.infer<typeof SequenceDefinitionSchema>;
