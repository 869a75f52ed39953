import { z } from 'zod';
import { TemplateSchema } from '../templates/index.js';

/** One A/B variant of a step's (or an e-mail node's) copy. */
export const StepVariantSchema = z.object({
  subject: TemplateSchema.describe('Subject template; follow-ups reuse the first subject as `Re: …`'),
  body: TemplateSchema.describe('Body template with {{variables}} and {{variable|fallback}}'),
});
