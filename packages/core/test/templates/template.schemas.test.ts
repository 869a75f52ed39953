import { describe, expect, it } from 'vitest';
import { TemplateSchema } from '../../src/templates/index.js';

function problemOf(template: string): string | undefined {
  const result = TemplateSchema.safeParse(template);
  return result.success ? undefined : result.error.issues.map((issue) => issue.message).join('; ');
}

describe('TemplateSchema', () => {
  it.each([
    'Plain text',
    'Hi {{firstName}}',
    'Hi {{ firstName | there }}, {{company|your team}}.',
    '{{_internal}} {{job-title}} {{utm_2}}',
    '',
  ])('accepts %j', (template) => {
    expect(problemOf(template)).toBeUndefined();
  });

  it.each([
    ['Hi {{firstName', 'unclosed "{{" at character 4'],
    ['Hi {{firstName} and {{company}}', 'unclosed "{{" at character 4'],
    ['Hi {{}}', 'empty variable name at character 4'],
    ['Hi {{   |there}}', 'empty variable name'],
    ['Hi {{first name}}', 'invalid variable name "first name"'],
    ['Hi {{1st}}', 'invalid variable name "1st"'],
    ['Hi {{company.name}}', 'invalid variable name "company.name"'],
    ['Hi {{{firstName}}}', 'invalid variable name "{firstName"'],
    ['Hi {{firstName|{x}}', 'fallback of "firstName"'],
  ])('refuses %j', (template, problem) => {
    const message = problemOf(template);
    expect(message).toMatch(/^Invalid template: /);
    expect(message).toContain(problem);
  });

  it('quotes where the problem is', () => {
    expect(problemOf('Dear {{ first-name!}}, hello')).toBe(
      'Invalid template: invalid variable name "first-name!" at character 6 ("{{ first-name!}}, hello"): ' +
        'use letters, digits, "_" or "-", starting with a letter or "_"',
    );
  });
});
