import { describe, expect, it } from 'vitest';
import { classifyReplyText } from '../../src/classify/index.js';

const classOf = (text: string, subject = 'Re: Quick question') =>
  classifyReplyText({ subject, text }).replyClass;

describe('meeting requests (reply class meeting_request)', () => {
  it.each([
    ['en', 'Can we set up a call next week?'],
    ['en', 'Happy to chat. Could we schedule a quick 15-minute call?'],
    ['en', "Let's meet Tuesday, does 10am work?"],
    ['en', 'Book a time that suits you and we can go through it.'],
    ['en', 'Send me your calendar link and I will pick a slot.'],
    ['en', "What's your availability on Thursday?"],
    ['en', 'Sure, send me an invite for Friday.'],
    ['en', 'Grab a slot here: https://calendly.com/jane-doe/30min'],
    ['en', 'Pick a time: https://meetings.hubspot.com/jane'],
    ['de', 'Können wir einen kurzen Termin vereinbaren?'],
    ['de', 'Lassen Sie uns gerne einen Termin finden, wann haben Sie Zeit?'],
    ['de', 'Lass uns am Dienstag telefonieren.'],
    ['de', 'Schicken Sie mir gerne Ihren Kalenderlink.'],
    ['fr', 'Pouvons-nous organiser un appel la semaine prochaine ?'],
    ['fr', 'Prenons un rendez-vous, quelles sont vos disponibilités ?'],
    ['fr', 'Envoyez-moi votre agenda, je réserve un créneau.'],
    ['es', '¿Podemos agendar una llamada el jueves?'],
    ['es', 'Envíame tu calendario y reservo una hora.'],
    ['es', 'Hagamos una reunión, ¿cuál es tu disponibilidad?'],
    ['pt', 'Podemos marcar uma reunião na próxima semana?'],
    ['pt', 'Vamos agendar uma chamada? Qual a sua disponibilidade?'],
    ['it', 'Possiamo fissare una chiamata giovedì?'],
    ['it', 'Mandami il tuo calendario e fissiamo un incontro.'],
    ['nl', 'Kunnen we een afspraak inplannen voor volgende week?'],
    ['nl', 'Stuur me je agenda, dan plannen we iets in. Wanneer heb je tijd?'],
  ])('%s: "%s"', (_lang, text) => {
    const got = classifyReplyText({ subject: 'Re: Quick question', text });
    expect(got.replyClass).toBe('meeting_request');
    expect(got.sentiment).toBe('positive');
    expect(got.decidedBy).toMatch(/^meeting_request: /);
  });

  it('a decline, an unsubscribe or a wrong person wins over a call mentioned in passing', () => {
    expect(classOf('Not interested, no need to schedule a call.')).toBe('not_interested');
    expect(classOf('Please unsubscribe me. No, we cannot set up a call.')).toBe('unsubscribe');
    expect(classOf('I have left the company; can we set up a call? No.')).toBe('wrong_person');
  });

  it('interest without asking to meet stays interested; a plain answer stays neutral', () => {
    expect(classOf('Sounds interesting, tell me more.')).toBe('interested');
    expect(classOf('Send me some information about pricing please.')).toBe('interested');
    expect(classOf('Thanks, got it.')).toBe('neutral');
  });

  it('our own words quoted in the reply never make it a meeting request', () => {
    const text = [
      'Thanks, will read it.',
      '',
      'On Mon, Nov 23, 2026 at 9:00 AM Sam <sam@touchbase.example> wrote:',
      '> Can we set up a call next week? Book here: https://calendly.com/sam/30min',
    ].join('\n');
    expect(classOf(text)).toBe('neutral');
  });
});
