import { describe, expect, it } from 'vitest';
import { findVariables, renderTemplate, TemplateError } from '../../src/templates/index.js';

const ada = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: 'Analytical Engines',
  email: 'ada@example.com',
};

describe('renderTemplate', () => {
  it('substitutes variables', () => {
    expect(renderTemplate('Hi {{firstName}} at {{company}}!', ada)).toEqual({
      ok: true,
      text: 'Hi Ada at Analytical Engines!',
    });
  });

  it('tolerates whitespace inside the braces', () => {
    expect(renderTemplate('Hi {{ firstName }}, {{  lastName|friend  }}', ada)).toEqual({
      ok: true,
      text: 'Hi Ada, Lovelace',
    });
  });

  it('uses custom attributes from the same flat record', () => {
    const vars = { ...ada, job_title: 'Countess', 'pain-point': 'slow arithmetic' };
    expect(renderTemplate('{{job_title}} with {{pain-point}}', vars)).toEqual({
      ok: true,
      text: 'Countess with slow arithmetic',
    });
  });

  it('uses the fallback, which may hold spaces and punctuation, when the value is missing, null or blank', () => {
    const template = 'Hi {{firstName|there, friend!}} from {{company | your team (and co.)}}';
    for (const firstName of [undefined, null, '', '   ']) {
      expect(renderTemplate(template, { firstName, company: null })).toEqual({
        ok: true,
        text: 'Hi there, friend! from your team (and co.)',
      });
    }
  });

  it('accepts an empty fallback, meaning "leave it out"', () => {
    expect(renderTemplate('Hi{{ firstName| }}!', {})).toEqual({ ok: true, text: 'Hi!' });
  });

  it('splits name and fallback at the first pipe only', () => {
    expect(renderTemplate('{{company|A | B}}', {})).toEqual({ ok: true, text: 'A | B' });
  });

  it('trims the values it inserts', () => {
    expect(renderTemplate('Hi {{firstName}},', { firstName: '  Ada ' })).toEqual({
      ok: true,
      text: 'Hi Ada,',
    });
  });

  it('fails and names every missing, null or blank variable without a fallback, once each', () => {
    const result = renderTemplate(
      '{{firstName}} {{lastName}} {{company}} {{firstName}} {{title|}} {{email}}',
      {
        firstName: null,
        lastName: '  ',
        email: 'ada@example.com',
      },
    );
    expect(result).toEqual({ ok: false, missing: ['firstName', 'lastName', 'company'] });
  });

  it('is case-sensitive, so a misspelt name fails loudly instead of sending a blank', () => {
    expect(renderTemplate('Hi {{firstname}}', ada)).toEqual({ ok: false, missing: ['firstname'] });
  });

  it('does not find inherited properties such as constructor', () => {
    expect(renderTemplate('{{constructor}}', {})).toEqual({ ok: false, missing: ['constructor'] });
  });

  it('never outputs a literal {{ from prospect data', () => {
    expect(renderTemplate('Hi {{company}}', { company: '{{unsubscribe_link}}' })).toEqual({
      ok: false,
      missing: ['company'],
    });
    expect(renderTemplate('Hi {{company|there}}', { company: 'a {{b' })).toEqual({
      ok: true,
      text: 'Hi there',
    });
    const adjacent = renderTemplate('{{a}}{{b}}', { a: 'x{', b: '{y' });
    expect(adjacent).toEqual({ ok: false, missing: ['a', 'b'] });
  });

  it('passes text without tags through, including single braces and a stray }}', () => {
    const css = '<style>@media (max-width:600px){.a{color:red}}</style> {x}';
    expect(renderTemplate(css, {})).toEqual({ ok: true, text: css });
  });

  it('throws TemplateError for a malformed template', () => {
    expect(() => renderTemplate('Hi {{firstName', ada)).toThrow(TemplateError);
    expect(() => renderTemplate('Hi {{firstName', ada)).toThrow(
      expect.objectContaining({ code: 'invalid_template' }),
    );
  });
});

describe('findVariables', () => {
  it('lists distinct names in order of first use, with or without fallbacks', () => {
    expect(findVariables('{{ company }} {{firstName|there}} {{company}} {{email}}')).toEqual([
      'company',
      'firstName',
      'email',
    ]);
  });

  it('returns nothing for plain text', () => {
    expect(findVariables('Hello there')).toEqual([]);
  });

  it('throws TemplateError for a malformed template', () => {
    expect(() => findVariables('{{}}')).toThrow(TemplateError);
  });
});
