import { z } from 'zod';
import { TemplateSchema } from '../templates/index.js';
import { TextSchema } from '../text/safe-text.js';
import { DurationSchema } from '../time/index.js';
import { SequenceGraphSchema } from './sequence-graph.js';
import { StepVariantSchema } from './step-variant.js';

export { StepVariantSchema } from './step-variant.js';

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

/**
 * A sequence as the API takes it: a list of e-mail `steps` (stored as their chain)
 * or a `graph`, one of the two (`versionDefinitionOf` in sequence-version.ts).
 */
export const SequenceDefinitionSchema = z
  .object({
    name: TextSchema.trim().min(1).max(200),
    steps: SequenceStepsSchema.optional().describe(
      'A linear list of e-mail steps (a chain); or give `graph`',
    ),
    graph: SequenceGraphSchema.optional().describe(
      'The sequence as a graph of nodes and edges; or give `steps`',
    ),
  })
  .strict();

export type SequenceStep = z.infer<typeof SequenceStepSchema>;
export type SequenceDefinition = z.infer<typeof SequenceDefinitionSchema>;
