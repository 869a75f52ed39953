import { z } from 'zod';
import { parseTemplate } from './template-parser.js';

/**
 * Zod schema for a subject or body template: refuses an unclosed `{{`, an empty
 * variable name or invalid characters in one, with a message naming the problem
 * and where it is.
 */
export const TemplateSchema = z.string().superRefine((value, ctx) => {
  const parsed = parseTemplate(value);
  if (!parsed.ok)
    ctx.addIssue({ code: 'custom', message: `Invalid template: ${parsed.problem}`, input: value });
});
