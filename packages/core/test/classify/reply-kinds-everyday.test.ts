import { describe, expect, it } from 'vitest';
// These cases pin the rules' own readings (classifyReplyText adds the learned model's second
// opinion, which reads some of these near-misses differently: see reply-model.test.ts).
import { classifyReplyTextByRules as classifyReplyText } from '../../src/classify/classify-reply-text.js';
import type { ReplyClass } from '../../src/classify/index.js';

// Everyday wordings of each reply kind (reply-kinds-everyday.rules.ts and the
// meeting-request additions), written here in other words than any fixture's:
// the familiar second person, an adjective between verb and noun, telegraphic
// absences, chat shorthand.
const read = (text: string) => classifyReplyText({ subject: 'Re: A quick idea', text });
const classOf = (text: string): ReplyClass => read(text).replyClass;

describe('everyday reply wordings, by kind', () => {
  it.each<[string, string, ReplyClass]>([
    // unsubscribe: the familiar form
    ['de', 'Nimm mich doch bitte aus deinem Verteiler.', 'unsubscribe'],
    ['es', 'Bórrame de tu lista, gracias.', 'unsubscribe'],
    ['es', 'Dejad de escribirme ya.', 'unsubscribe'],
    ['it', 'Smettila di mandarmi queste mail.', 'unsubscribe'],
    ['pt', 'Basta de e-mails, por favor.', 'unsubscribe'],
    ['nl', 'Haal me even uit je lijst aub.', 'unsubscribe'],
    // someone else no longer works there
    ['pt', 'O Sr. Lopes não trabalha mais aqui desde junho.', 'wrong_person'],
    ['it', 'Il sig. Rota non lavora più con noi.', 'wrong_person'],
    ['nl', 'Meneer Dekker is niet meer in dienst bij ons.', 'wrong_person'],
    ['fr', 'Mme Roux ne travaille plus ici depuis l’été.', 'wrong_person'],
    // not my department / not me who decides / the owner decides / I only do X
    ['en', 'Training budgets are not my department, sorry.', 'wrong_person'],
    ['nl', 'Daar ga ik niet over, dat is de directie.', 'wrong_person'],
    ['es', 'No soy yo quien decide esas compras.', 'wrong_person'],
    ['pt', 'nao sou eu q decide isso', 'wrong_person'],
    ['it', 'nn sono io che decido queste cose', 'wrong_person'],
    ['fr', "J'ai changé de poste, je ne m'occupe plus des achats.", 'wrong_person'],
    ['de', 'Das entscheidet bei uns der Chef, nicht ich.', 'wrong_person'],
    ['it', 'Queste cose le decide il titolare.', 'wrong_person'],
    ['nl', 'Ik zit op inkoop niet, ik zit op de receptie.', 'wrong_person'],
    // out of office in few words, at a fair, little mail
    ['en', 'On vacation until Monday the 3rd.', 'out_of_office'],
    ['de', 'Im Urlaub bis 12. Mai, danach gerne.', 'out_of_office'],
    ['fr', 'En congés jusqu’au 4 avril.', 'out_of_office'],
    ['it', 'In vacanza fino a martedì.', 'out_of_office'],
    ['de', 'Ich bin diese Woche auf einer Messe in Köln.', 'out_of_office'],
    ['es', 'Estoy en un congreso hasta el jueves y apenas leo el correo.', 'out_of_office'],
    ['nl', 'Ik ben deze week beperkt bereikbaar.', 'out_of_office'],
    // declines: a contract elsewhere, not a priority, no point, in-house
    ['en', 'We signed a three-year deal with another vendor last month.', 'not_interested'],
    ['de', 'Wir haben gerade einen Vertrag mit einem anderen Anbieter unterschrieben.', 'not_interested'],
    ['it', 'Abbiamo firmato un contratto con un altro fornitore.', 'not_interested'],
    ['nl', 'We werken al jaren met een andere leverancier.', 'not_interested'],
    ['en', "Analytics aren't a priority for us this year.", 'not_interested'],
    ['it', 'Non ha senso fissare un incontro, grazie.', 'not_interested'],
    ['de', 'Macht keinen Sinn für uns, wir machen das alles selbst.', 'not_interested'],
    // interest: an offer asked for with words between, "tell me more", "it interests me"
    ['de', 'Schicken Sie mir gern ein kurzes schriftliches Angebot.', 'interested'],
    ['es', 'Le agradecería que me mandara la lista de precios.', 'interested'],
    ['nl', 'Stuur ons maar een prijsopgave en de prijslijst.', 'interested'],
    ['fr', 'Votre offre nous intéresse, dites-m’en plus.', 'interested'],
    ['it', 'Ci interessa, raccontami di più.', 'interested'],
    ['pt', 'Soa interessante, me conta mais.', 'interested'],
    // meeting requests: availability with a day, an invitation asked for, a booking page
    ['en', "I'm free Thursday at 3, send me an invite.", 'meeting_request'],
    ['es', 'Estoy disponible el jueves por la tarde.', 'meeting_request'],
    ['pt', 'Estou disponível na quarta às 14h.', 'meeting_request'],
    ['nl', 'Ik ben vrijdag om 9 uur beschikbaar.', 'meeting_request'],
    ['de', 'Ich hätte am Donnerstag ab 14 Uhr Zeit.', 'meeting_request'],
    ['it', 'Mi mandi un invito per giovedì.', 'meeting_request'],
    ['fr', 'Appelons-nous lundi vers 10h.', 'meeting_request'],
    ['de', 'Lassen Sie uns kurz telefonieren.', 'meeting_request'],
    ['nl', 'Laten we even bellen.', 'meeting_request'],
    ['es', '¿Quedamos para vernos el martes?', 'meeting_request'],
    ['en', 'Pick any time here: https://booking.example.org/ana', 'meeting_request'],
    // second pass: absent until / back on / sick; proposals of a day; "could interest us"
    ['es', 'Ausente hasta el 10 de enero.', 'out_of_office'],
    ['it', 'Sono fuori fino a lunedì.', 'out_of_office'],
    ['pt', 'Estarei de volta dia 3 de março.', 'out_of_office'],
    ['nl', 'Ik ben op 3 maart weer op kantoor.', 'out_of_office'],
    ['de', 'Derzeit krankgeschrieben.', 'out_of_office'],
    ['en', 'Away on annual leave, back Monday 3 March.', 'out_of_office'],
    ['de', 'Wie wäre es mit Mittwoch, 15 Uhr?', 'meeting_request'],
    ['pt', 'Sugira um dia para uma reunião.', 'meeting_request'],
    ['nl', 'Zien we elkaar donderdag?', 'meeting_request'],
    ['es', 'Tengo hueco el martes por la tarde.', 'meeting_request'],
    ['de', 'Können wir morgen kurz sprechen?', 'meeting_request'],
    ['en', 'Sure, book something in my calendar for Friday.', 'meeting_request'],
    ['fr', 'Ça peut nous intéresser.', 'interested'],
    ['it', 'Vorrei ricevere un preventivo.', 'interested'],
    ['es', 'Vale, pásame precios.', 'interested'],
    ['nl', 'Ja, hier zijn we juist naar op zoek.', 'interested'],
    ['nl', 'We werken al met een ander bedrijf.', 'not_interested'],
    ['en', "We're locked into a contract with our current provider until 2028.", 'not_interested'],
    ['pt', 'Não temos necessidade.', 'not_interested'],
    ['pt', 'Você errou de pessoa.', 'wrong_person'],
    ['it', 'Se ne occupa il mio collega Marco.', 'wrong_person'],
    ['nl', 'Jan werkt hier niet meer.', 'wrong_person'],
    ['en', "I don't make these decisions.", 'wrong_person'],
    ['es', 'Por favor, dadme de baja.', 'unsubscribe'],
    ['en', 'I never signed up for this, stop.', 'unsubscribe'],
    // third pass: a day that suits, GDPR erasure, "later", who handles it, no budget
    ['en', 'Yes - 15 minutes on Tuesday works. 10am?', 'meeting_request'],
    ['es', 'El miércoles a las 12 me va bien.', 'meeting_request'],
    ['nl', 'Woensdag om 14.00 uur komt mij goed uit.', 'meeting_request'],
    ['en', 'Under GDPR, please delete all data you hold about me.', 'unsubscribe'],
    ['it', 'Ai sensi del GDPR chiedo la cancellazione dei miei dati.', 'unsubscribe'],
    ['pt', 'Conforme a LGPD, solicito a exclusão dos meus dados.', 'unsubscribe'],
    ['de', 'Im Moment nicht, melden Sie sich gern im Herbst wieder.', 'not_interested'],
    ['en', 'Not right now - reach out again in Q3.', 'not_interested'],
    ['fr', "C'est intéressant mais nous n'avons pas le budget cette année.", 'not_interested'],
    ['fr', 'Je transmets à ma collègue qui gère ce sujet : julie@acme.test.', 'wrong_person'],
    ['es', 'Quien lleva esto es Marta: marta@acme.test.', 'wrong_person'],
    ['nl', 'Hiervoor moet u bij piet@acme.test zijn.', 'wrong_person'],
    // autoresponder bodies: no access to mail, the day of return
    ['es', 'No tengo acceso al correo hasta el lunes.', 'out_of_office'],
    ['es', 'Estoy disfrutando de unos días de descanso. Volveré el 15 de agosto.', 'out_of_office'],
    ['pt', 'Retorno às atividades no dia 3 de fevereiro.', 'out_of_office'],
    ['de', 'Ab Montag, 7.4., bin ich wieder für Sie da.', 'out_of_office'],
    ['nl', 'Ik heb tot maandag geen toegang tot mijn e-mail.', 'out_of_office'],
    // fourth pass: changed roles, forwarded to the one who decides, on the road and offline
    ['en', 'I switched roles in May and no longer look after events.', 'wrong_person'],
    ['de', 'Ich habe die Stelle gewechselt und betreue das Thema nicht mehr.', 'wrong_person'],
    ['pt', 'Mudei de cargo e não cuido mais disso.', 'wrong_person'],
    ['it', 'Ho cambiato reparto, non seguo più gli acquisti.', 'wrong_person'],
    ['nl', 'Ik ben van afdeling gewisseld en doe geen inkoop meer.', 'wrong_person'],
    ['pt', 'Encaminhei seu e-mail ao diretor, ele decide.', 'wrong_person'],
    ['nl', 'Ik heb je bericht doorgestuurd naar de directeur, zij beslist hierover.', 'wrong_person'],
    ['de', 'Ich bin bis Freitag geschäftlich unterwegs und kaum erreichbar.', 'out_of_office'],
    ['it', 'Questa settimana sono in giro per clienti, poco raggiungibile.', 'out_of_office'],
    ['es', 'Esta semana voy visitando clientes y casi sin cobertura.', 'out_of_office'],
    ['nl', 'Kunt u mij een overzicht van de kosten mailen?', 'interested'],
    ['nl', 'Wij hebben het op dit moment echt niet nodig.', 'not_interested'],
    // fifth pass: not coming back to the role; no meeting needed
    [
      'en',
      'I am on leave until June and will not be back in this role; please write to mark@acme.test.',
      'wrong_person',
    ],
    ['es', 'No, no hace falta ninguna reunión.', 'not_interested'],
    ['nl', 'Nee, geen afspraak nodig, dank je.', 'not_interested'],
    // formal register: next steps and references; organise a demo, slots to confirm;
    // staying with the current supplier, outside the plans, no use seen; head office
    // decides, redirect to a department, nothing to do with it; refrain from contact
    ['de', 'Wie sähen die nächsten Schritte aus?', 'interested'],
    ['it', 'Avete clienti di riferimento nel settore alimentare?', 'interested'],
    ['es', 'Organice, por favor, una presentación con el equipo de ventas.', 'meeting_request'],
    ['nl', 'Stuur me wat tijdsloten, dan bevestig ik er één.', 'meeting_request'],
    ['fr', 'Nous préférons rester avec notre prestataire actuel.', 'not_interested'],
    ['pt', 'Isso não faz parte dos nossos planos este ano.', 'not_interested'],
    ['en', "Honestly we don't see a use for it here.", 'not_interested'],
    ['en', 'Those decisions are made at our head office.', 'wrong_person'],
    ['de', 'Bitte wenden Sie sich mit Ihrer Anfrage an unsere IT-Abteilung.', 'wrong_person'],
    ['it', 'Non ho nulla a che fare con gli acquisti.', 'wrong_person'],
    ['en', 'Please refrain from emailing me again.', 'unsubscribe'],
    ['es', 'Me opongo a que usen mi correo para publicidad.', 'unsubscribe'],
    ['nl', 'Richt uw verzoek a.u.b. aan onze afdeling inkoop.', 'wrong_person'],
    // chat shorthand: telegraphic absences, "wrong person", informal removal, price
    ['en', 'on hols till weds', 'out_of_office'],
    ['pt', 'fora até dia 20', 'out_of_office'],
    ['it', 'persona sbagliata, mi spiace', 'wrong_person'],
    ['fr', 'mauvais interlocuteur, désolé', 'wrong_person'],
    ['es', 'no soy yo, habla con administración', 'wrong_person'],
    ['pt', 'me tira dessa lista por favor', 'unsubscribe'],
    ['it', 'toglimi dalla mailing list', 'unsubscribe'],
    ['de', 'was kostets im monat?', 'interested'],
    // would like an offer, a trial; asks to be called at a number
    ['es', 'Quisiéramos un presupuesto para la sede de Sevilla.', 'interested'],
    ['nl', 'We zouden graag een prijsopgave ontvangen.', 'interested'],
    ['de', 'Gibt es eine kostenlose Testversion?', 'interested'],
    ['it', 'Avete un periodo di prova?', 'interested'],
    ['fr', 'Vous pouvez m’appeler au 01 23 45 67 89.', 'meeting_request'],
    ['nl', 'Je kunt me bellen op 020 123 4567.', 'meeting_request'],
    ['it', 'Può chiamarmi al numero in firma.', 'meeting_request'],
    // sixth pass: material asked for, the rollout, another way, a frozen budget, a
    // training course, an assistant who sets the time, 'only handle', a mailbox not read
    ['pt', 'Vocês têm uma apresentação da empresa?', 'interested'],
    ['nl', 'Hoe zou de invoering bij ons verlopen?', 'interested'],
    ['it', 'Alla fine abbiamo preso un’altra strada.', 'not_interested'],
    ['de', 'Unser Budget ist eingefroren.', 'not_interested'],
    ['fr', 'Je suis en formation jusqu’à jeudi.', 'out_of_office'],
    ['es', 'Mi secretaria le llamará para concretar una cita.', 'meeting_request'],
    ['en', 'I only handle payroll here.', 'wrong_person'],
    ['de', 'Sein Postfach wird nicht mehr gelesen.', 'wrong_person'],
    ['pt', 'Apaguem o meu e-mail, por favor.', 'unsubscribe'],
    // seventh pass: a visit asked for, mail read only in the evening, the one to talk to,
    // 'it did not work for us', costs to share, Dutch 'stop met sturen'
    ['de', 'Könnten Sie nächste Woche zu einer Besichtigung zu uns kommen?', 'meeting_request'],
    ['it', 'Questa settimana leggo la posta solo la sera.', 'out_of_office'],
    ['fr', 'C’est Paul qu’il vous faut, il gère les achats.', 'wrong_person'],
    ['es', 'Lo probamos hace un año y no nos funcionó.', 'not_interested'],
    ['nl', 'Kunnen jullie de kosten delen?', 'interested'],
    ['nl', 'Stop nou met het mailen.', 'unsubscribe'],
  ])('%s: %s -> %s', (_lang, text, expected) => {
    expect(classOf(text)).toBe(expected);
  });

  it.each<[string, string, ReplyClass]>([
    // a negated availability is not a time offered
    ['en', "I'm not available on Monday, sorry, and honestly we have no budget.", 'not_interested'],
    ['de', 'Am Montag habe ich leider keine Zeit.', 'neutral'],
    // "not interested" in the familiar form stays a decline, not interest
    ['fr', 'Ça ne m’intéresse pas.', 'not_interested'],
    ['it', 'Non ci interessa.', 'not_interested'],
    // a salon named without saying one is there is no absence
    ['fr', 'On s’est vus au salon de Lyon, non ?', 'neutral'],
    // "on the way to" is no absence; "can we talk?" with no day stays interest
    ['de', 'Wir sind auf dem Weg bis zur Küste, schöne Grüße.', 'neutral'],
    ['en', "Sounds interesting, I'd love to learn more. Can we talk?", 'interested'],
    // no free slot is not a slot
    ['es', 'No tengo hueco el martes, lo siento.', 'neutral'],
    ['nl', 'Ik heb dinsdag geen tijd.', 'neutral'],
    // a day that does not suit is no slot
    ['en', 'Nothing works for me this week.', 'neutral'],
    ['fr', 'Ça ne me va pas mardi.', 'neutral'],
    // an absence said by hand next to a request that stops or answers: never a pause
    ['es', 'Estoy de vacaciones hasta el lunes, pero por favor quitadme de la lista.', 'unsubscribe'],
    ['it', 'Sono in ferie fino a lunedì, comunque non siamo interessati.', 'not_interested'],
    ['en', "I'll be back in the office on Monday, let's talk then.", 'interested'],
    // a request for the data held about the writer (GDPR art. 15) is neutral, not interest
    ['en', 'Where did you get my address? Send me the information you hold about me.', 'neutral'],
    ['nl', 'Waar heeft u mijn adres vandaan? Stuur mij de informatie die u over mij heeft.', 'neutral'],
    ['pt', 'Onde vocês conseguiram meu e-mail? Enviem as informações que têm sobre mim.', 'neutral'],
    ['en', 'Where did you get my address? Anyway, send me your pricing.', 'interested'],
    // an absence in the past is no absence now; the reply is read for what it asks
    ['en', 'Sorry for the slow reply, I was on holiday last week. Please send the pricing.', 'interested'],
    ['it', 'Scusa il ritardo, ero in ferie. Mandami i prezzi.', 'interested'],
    ['es', 'Estuve de vacaciones, ¿de qué se trataba?', 'neutral'],
    // the writer says they ARE the one who handles it: no wrong person
    ['pt', 'Sou eu quem cuida disso, o que vocês oferecem?', 'neutral'],
    ['es', 'Sí, soy yo quien lleva las compras. ¿Qué ofrecéis exactamente?', 'neutral'],
    ['de', 'Ich bin der richtige Ansprechpartner, was kostet das?', 'interested'],
    // a question about OUR office or holidays is no absence of theirs
    ['it', 'Il vostro ufficio è chiuso ad agosto?', 'neutral'],
    ['nl', 'Is jullie kantoor gesloten in de zomer?', 'neutral'],
    ['en', "I'm back from the conference and would like to hear more.", 'interested'],
    // giving a number is interest; asking to be called at it is a meeting request
    ['en', 'Sounds good. My number is 020 7946 0000.', 'interested'],
    // a company footer's unsubscribe instructions are addressed to the reader, not a request
    [
      'en',
      'Yes please, send the rate card.\n\nBest regards,\nLi Wei\nBuyer\n\nTo stop receiving our newsletter, click here to unsubscribe.',
      'interested',
    ],
    [
      'de',
      'Gern, schicken Sie mir die Preisliste.\n\nViele Grüße\nLi\n\nSie möchten keine Newsletter mehr? Dann können Sie sich hier abmelden.',
      'interested',
    ],
    [
      'nl',
      'Stuur de prijzen maar.\nLi\nInkoper\nWilt u geen e-mails meer ontvangen? Meld u dan hier af.',
      'interested',
    ],
    // a "Thanks!" line followed by a sentence is no sign-off
    ['en', 'Hi Sam,\nThanks!\nPlease remove me from your list.', 'unsubscribe'],
  ])('%s: %s -> %s (not the kind above)', (_lang, text, expected) => {
    expect(classOf(text)).toBe(expected);
  });

  it('names the evidence that decided', () => {
    const got = read('Im Urlaub bis 12. Mai.');
    expect(got.decidedBy).toMatch(/holiday until a day/);
    const meeting = read('Estoy disponible el jueves por la tarde.');
    expect(meeting.decidedBy).toMatch(/says when they are free/);
  });
});
