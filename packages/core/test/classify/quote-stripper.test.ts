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
    // Portuguese, Italian and Dutch clients, unquoted history (Apple Mail, Outlook)
    ['Portuguese', 'Sounds good.\n\nEm 3 de nov. de 2026, às 08:40, Sam <s@x.br> escreveu:\n\nPare'],
    ['Italian', 'Sounds good.\n\nIl 03/11/2026 08:40, Sam ha scritto:\n\nstop'],
    ['Dutch', 'Sounds good.\n\nOp 3 nov. 2026, om 08:40 heeft Sam <s@x.nl> het volgende geschreven:\n\nstop'],
    ['Outlook, Spanish', 'Sounds good.\n\nDe: Sam <s@x.es>\nEnviado el: lunes\nAsunto: x\n\nbaja'],
    [
      'Outlook, Portuguese',
      'Sounds good.\n\nDe: Sam <s@x.br>\nEnviada em: segunda-feira\nAssunto: x\n\nPare',
    ],
    ['Outlook, Italian', 'Sounds good.\n\nDa: Sam <s@x.it>\nInviato: lunedì\nOggetto: x\n\nstop'],
    ['Outlook, Dutch', 'Sounds good.\n\nVan: Sam <s@x.nl>\nVerzonden: maandag\nOnderwerp: x\n\nstop'],
    ['Italian separator', 'Sounds good.\n-----Messaggio originale-----\nDa: Sam\nstop'],
    ['Dutch phone signature', 'Sounds good.\n\nVerzonden vanaf mijn iPhone'],
  ])('cuts %s history', (_name, text) => {
    expect(stripQuotedText(text)).toBe('Sounds good.');
  });

  it('keeps a reply written below the quote', () => {
    expect(stripQuotedText('> Worth a call?\nYes, Tuesday works.')).toBe('Yes, Tuesday works.');
  });
});
