import { describe, expect, it } from 'vitest';
import { stripQuotedText } from '../../src/classify/quote-stripper.js';

describe('stripQuotedText', () => {
  it.each([
    [
      'Gmail',
      'Sounds good.\n\nOn Tue, Mar 12, 2024 at 9:14 AM Dana <dana@x.io> wrote:\n> reply "stop" to opt out',
    ],
    [
      'Gmail, wrapped',
      'Sounds good.\n\nOn Tue, Mar 12, 2024 at 9:14 AM Dana Whitfield <\ndana@x.io> wrote:\n\n> stop',
    ],
    ['German', 'Sounds good.\n\nAm Di., 12. März 2024 um 09:14 Uhr schrieb Jana <j@x.de>:\n> Stopp'],
    ['French', 'Sounds good.\n\nLe mar. 12 mars 2024 à 09:14, Camille <c@x.fr> a écrit :\n> stop'],
    ['Spanish', 'Sounds good.\n\nEl mar, 12 mar 2024 a las 9:14, Lucía (<l@x.es>) escribió:\n> baja'],
    [
      'Outlook',
      'Sounds good.\n\n________________________________\nFrom: Dana <dana@x.io>\nSent: Tuesday\nSubject: x\n\nstop',
    ],
    ['Outlook, German', 'Sounds good.\n\nVon: Jana <j@x.de>\nGesendet: Dienstag\nBetreff: x\n\nStopp'],
    ['original message', 'Sounds good.\n-----Original Message-----\nFrom: Dana\nstop'],
    ['signature', 'Sounds good.\n-- \nDana | unsubscribe link'],
    ['phone signature', 'Sounds good.\n\nSent from my iPhone'],
  ])('cuts %s history', (_name, text) => {
    expect(stripQuotedText(text)).toBe('Sounds good.');
  });

  it('keeps a reply written below the quote', () => {
    expect(stripQuotedText('> Worth a call?\nYes, Tuesday works.')).toBe('Yes, Tuesday works.');
  });
});
