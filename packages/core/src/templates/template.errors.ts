/**
 * A template is malformed (unclosed `{{`, empty or invalid variable name). Templates
 * are validated by `TemplateSchema` when a sequence is saved, so meeting this at
 * render time means an unvalidated template slipped through: a bug, not a prospect
 * problem.
 */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
  readonly code = 'invalid_template';

  constructor(readonly problem: string) {
    super(`Invalid template: ${problem}`);
  }
}
