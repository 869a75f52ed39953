import { TextSchema } from '../text/safe-text.js';
import { parseTemplate } from './template-parser.js';

/**
 * Zod schema for a subject or body template: refuses an unclosed `{{`, an empty
 * variable name or invalid characters in one, with a message naming the problem
 * and where it is (and, as every text field, NUL and lone surrogates).
 */
export const TemplateSchema = TextSchema.superRefine((value, ctx) => {
  const parsed = parseTemplate(value);
  if (!parsed.ok)
    ctx.addIssue({ code: 'custom', message: `Invalid template: ${parsed.problem}`, input: value });
});
