import { describe, expect, it } from 'vitest';
import { classifyReplyText } from '../../src/classify/index.js';
import { parseReturnDate } from '../../src/classify/return-date.parser.js';
import { foldText } from '../../src/classify/text-fold.js';

const sent = new Date('2024-03-13T10:00:00Z'); // a Wednesday

describe('parseReturnDate', () => {
  it.each([
    ['en', 'I will be back on Monday, March 18.', '2024-03-18'],
    ['en', 'I am out of the office until 04/15/2024.', '2024-04-16'],
    ['en', 'I am traveling for work on March 20-29.', '2024-03-30'],
    ['en', "I'll be back in the office on Thursday.", '2024-03-14'],
    ['de', 'Ich bin bis einschließlich 22.03.2024 nicht im Büro.', '2024-03-23'],
    ['de', 'Ab dem 08.04. bin ich wieder im Büro.', '2024-04-08'],
    ['de', 'Ich bin vom 1. bis 14. Juli im Urlaub.', '2024-07-15'],
    ['fr', 'Je serai de retour le lundi 25 mars.', '2024-03-25'],
    ['fr', "Je suis en congés jusqu'au 2 avril inclus.", '2024-04-03'],
    ['es', 'Estoy de vacaciones del 5 al 19 de agosto.', '2024-08-20'],
    ['es', 'Regreso el 3 de junio.', '2024-06-03'],
    ['en', "I'm away until January 6th.", '2024-01-07'],
    // Day before month outside US English.
    ['pt', 'Estou fora do escritório até 10/04/2024. Responderei quando voltar.', '2024-04-11'],
    ['it', 'Sono fuori ufficio fino al 10/04/2024, grazie.', '2024-04-11'],
    ['nl', 'Ik ben afwezig tot en met 10/04/2024, bedankt voor je bericht.', '2024-04-11'],
  ] as const)('%s: %s', (lang, text, expected) => {
    // "January 6th" written in March is next January, but in the past it would be this one:
    const reference = text.includes('January') ? new Date('2023-12-20T10:00:00Z') : sent;
    expect(parseReturnDate(foldText(text), lang, reference)?.date).toBe(expected);
  });

  it('reads 10/12 as 10 December in a Portuguese, Italian or Dutch auto-reply (the language is guessed)', () => {
    for (const text of [
      'Estou fora do escritório até 10/12/2026. Responderei ao seu e-mail quando voltar.',
      'Sono fuori ufficio fino al 10/12/2026. Risponderò al mio rientro.',
      'Ik ben afwezig tot 10/12/2026 en heb beperkt toegang tot mijn e-mail.',
    ]) {
      const got = classifyReplyText({
        subject: 'Automatic reply',
        text,
        headers: { 'auto-submitted': 'auto-replied' },
      });
      expect(got.replyClass, text).toBe('out_of_office');
      expect(got.returnDate, text).toBe('2026-12-11');
    }
  });

  it('gives no date without a year or a message date to anchor it', () => {
    expect(parseReturnDate(foldText('back on March 18'), 'en', undefined)).toBeUndefined();
    expect(parseReturnDate(foldText('back on 2024-03-18'), 'en', undefined)?.date).toBe('2024-03-18');
  });

  it('ignores dates that are not about the return', () => {
    expect(parseReturnDate(foldText('Your invoice of 12 March is attached.'), 'en', sent)).toBeUndefined();
  });
});
