import { describe, expect, it } from 'vitest';
import type { ReplyClass } from '../../src/classify/index.js';
import { classifyReplyText } from '../../src/classify/index.js';

// Kinds added after measuring replies by a writer who had not read the rules
// (test/fixtures/replies-multilingual/dev-4.json); each is written in several
// languages here, in other words than the set's.
const classOf = (text: string, subject = 'Re: A quick idea'): ReplyClass =>
  classifyReplyText({ subject, text }).replyClass;

describe("reply kinds found on an independent writer's replies", () => {
  it.each<[string, string, ReplyClass]>([
    // removal from a company's lists or databases, formal or blunt
    ['de', 'Bitte nehmen Sie uns aus sämtlichen Verteilern heraus.', 'unsubscribe'],
    ['es', 'Les ruego que nos eliminen de sus listas.', 'unsubscribe'],
    ['it', 'Vi preghiamo di cancellarci dai vostri elenchi.', 'unsubscribe'],
    ['nl', 'Graag dit adres uit uw bestanden verwijderen.', 'unsubscribe'],
    ['pt', 'Por favor, removam-nos das suas listas.', 'unsubscribe'],
    ['es', 'No me mandes más cosas, gracias.', 'unsubscribe'],
    ['pt', 'Pare de me enviar e-mails.', 'unsubscribe'],
    ['nl', 'Mail me niet meer.', 'unsubscribe'],
    // retired or left, said of someone else
    ['en', 'Mr. Grant has retired, this inbox is read by reception.', 'wrong_person'],
    ['de', 'Frau Beck ist seit Juli im Ruhestand.', 'wrong_person'],
    ['it', 'Il dott. Neri è in pensione da un anno.', 'wrong_person'],
    ['nl', 'Mevrouw Smit is sinds mei met pensioen.', 'wrong_person'],
    ['pt', 'O Carlos saiu da empresa no ano passado.', 'wrong_person'],
    // does not know who handles it; someone else now looks after it
    ['en', "Sorry, I don't know who handles catering here.", 'wrong_person'],
    ['fr', "Je ne sais pas qui s'occupe des achats, désolé.", 'wrong_person'],
    ['es', 'No sé quién lleva las compras aquí.', 'wrong_person'],
    ['it', 'Non so chi segua gli acquisti.', 'wrong_person'],
    ['nl', 'Ik weet niet wie de inkoop doet.', 'wrong_person'],
    ['de', 'Keine Ahnung, wer das bei uns entscheidet.', 'wrong_person'],
    ['pt', 'Não sei quem decide isso aqui.', 'wrong_person'],
    ['es', 'Marta ya no lleva compras, ahora se encarga Luis.', 'wrong_person'],
    ['nl', 'Marketing valt nu onder Pieter.', 'wrong_person'],
    ['pt', 'Hoje quem cuida disso é o Rafael.', 'wrong_person'],
    // polite decline closings, no longer needed, in-house, renewed, not this year
    ['en', 'We just switched providers. Thanks anyway!', 'not_interested'],
    ['fr', 'Nous venons de changer de prestataire. Merci quand même.', 'not_interested'],
    ['it', 'Abbiamo appena cambiato fornitore. Grazie lo stesso.', 'not_interested'],
    ['pt', 'Acabamos de trocar de fornecedor. Obrigado mesmo assim.', 'not_interested'],
    ['es', 'Ya no nos hace falta, cerramos esa línea.', 'not_interested'],
    ['nl', 'Dat is niets voor ons.', 'not_interested'],
    ['en', 'We do all of that in-house.', 'not_interested'],
    ['nl', 'De vertalingen doen we zelf.', 'not_interested'],
    ['it', 'Abbiamo rinnovato il contratto con il fornitore attuale.', 'not_interested'],
    ['es', 'Hemos renovado el contrato con nuestro proveedor.', 'not_interested'],
    ['de', 'Dieses Jahr nicht, wir haben das Budget verplant.', 'not_interested'],
    ['fr', "Ce n'est pas le bon moment, on a un gros projet en cours.", 'not_interested'],
    // not now (a sentence of its own), no budget, chose another supplier
    ['es', 'Por ahora no. Gracias.', 'not_interested'],
    ['pt', 'Agora não, talvez em 2027.', 'not_interested'],
    ['it', 'Per il momento no, ci risentiamo in primavera.', 'not_interested'],
    ['nl', 'Op dit moment niet, misschien volgend jaar.', 'not_interested'],
    ['de', 'Dafür haben wir kein Budget.', 'not_interested'],
    ['es', 'No hay presupuesto para esto.', 'not_interested'],
    ['it', "Non c'è budget quest'anno.", 'not_interested'],
    ['fr', 'Nous avons retenu un autre prestataire.', 'not_interested'],
    ['pt', 'Escolhemos outra empresa, obrigado.', 'not_interested'],
    ['nl', 'We hebben voor een andere leverancier gekozen.', 'not_interested'],
    // satisfied with the current supplier; plain no thanks; not a priority
    ['pt', 'Estamos muito satisfeitos com a nossa agência.', 'not_interested'],
    ['it', 'Siamo soddisfatti del servizio che abbiamo.', 'not_interested'],
    ['nl', 'We zijn erg tevreden met ons huidige pakket.', 'not_interested'],
    ['pt', 'Não, obrigada.', 'not_interested'],
    ['nl', 'Heeft nu geen prioriteit.', 'not_interested'],
    // only an intern, does not decide; another team handles it
    ['pt', 'Sou apenas a recepcionista.', 'wrong_person'],
    ['it', 'Sono solo la stagista, non decido io.', 'wrong_person'],
    ['nl', 'Ik beslis dat niet, sorry.', 'wrong_person'],
    ['en', "I don't make that call, sorry.", 'wrong_person'],
    ['en', 'That would be our facilities team.', 'wrong_person'],
    ['de', 'Das macht bei uns die IT-Abteilung.', 'wrong_person'],
    ['fr', 'Cela relève de la direction financière.', 'wrong_person'],
    ['pt', 'Isso fica com o setor de compras.', 'wrong_person'],
    ['it', "Questo lo segue l'ufficio tecnico.", 'wrong_person'],
    ['nl', 'Dat loopt via de facilitaire dienst.', 'wrong_person'],
    // price for their case, asked as a question
    ['fr', 'Combien ça coûterait pour deux sites ?', 'interested'],
    ['pt', 'Qual seria o custo para duas lojas?', 'interested'],
    ['it', 'Quanto viene per due sedi?', 'interested'],
    ['nl', 'Wat zijn de kosten voor twee vestigingen?', 'interested'],
    // asks for the catalogue, prices or a sample; welcomes it; volume discounts
    ['en', 'Please send me your price list.', 'interested'],
    ['de', 'Schicken Sie uns gerne Ihre Preisliste.', 'interested'],
    ['fr', 'Envoyez-moi vos tarifs pour 50 postes.', 'interested'],
    ['es', 'Envíame el presupuesto para dos oficinas.', 'interested'],
    ['pt', 'Me manda o orçamento para três lojas.', 'interested'],
    ['it', 'Mandatemi il listino, per favore.', 'interested'],
    ['nl', 'Stuur me de prijslijst maar.', 'interested'],
    ['nl', 'Een proefperiode lijkt me leuk.', 'interested'],
    ['de', 'Gibt es einen Mengenrabatt ab 100 Stück?', 'interested'],
    ['pt', 'Tem desconto por quantidade?', 'interested'],
  ])('%s: "%s" is %s', (_lang, text, label) => {
    expect(classOf(text)).toBe(label);
  });

  it.each<[string, string, string]>([
    ['en', 'Office closure', 'Our office is closed from 24 December until 2 January.'],
    ['de', 'Betriebsferien', 'Unsere Praxis ist vom 23.12. bis 6.1. geschlossen.'],
    ['es', 'Cierre por vacaciones', 'La oficina estará cerrada del 1 al 15 de agosto.'],
    ['it', 'Chiusura estiva', "L'ufficio resterà chiuso dal 10 al 24 agosto."],
    ['pt', 'Re: Proposta', 'Estou de licença maternidade até março.'],
    ['nl', 'Re: Voorstel', 'Ik ben met zwangerschapsverlof tot april.'],
    ['it', 'Re: Proposta', 'Sono in congedo di maternità fino a maggio.'],
    ['fr', 'Re: Proposition', 'Je suis en congé parental jusqu’en février.'],
    ['es', 'Re: Propuesta', 'Estaré en una feria hasta el miércoles.'],
    ['it', 'Re: Proposta', 'Sono a un congresso fino a giovedì.'],
    ['nl', 'Re: Voorstel', 'Ik ben op een beurs tot en met vrijdag.'],
    ['de', 'Re: Idee', 'Vielen Dank für Ihre Nachricht. Ich bin bis 4. August im Urlaub.'],
    ['it', 'Re: Proposta', 'Sono in malattia fino a venerdì.'],
    ['nl', 'Re: Voorstel', 'Kantoor gesloten tot 5 januari.'],
    ['fr', 'Re: Proposition', 'Nos bureaux sont fermés jusqu’au 5 janvier.'],
  ])('%s: an absence notice without headers (%s) pauses', (_lang, subject, text) => {
    expect(classOf(text, subject)).toBe('out_of_office');
  });

  it.each<[string, string]>([
    ['en', 'Sure, call me Tuesday after 3 on 555 0100.'],
    ['de', 'Ruf mich morgen kurz nach der Mittagspause an.'],
    ['fr', 'Appelez-moi demain matin.'],
    ['es', 'Llámame mañana a primera hora.'],
    ['pt', 'Me liga amanhã depois do almoço.'],
    ['it', 'Chiamami domani pomeriggio.'],
    ['nl', 'Bel me morgen na de lunch.'],
    ['en', 'Come by our office on Thursday, we can show you the line.'],
    ['de', 'Kommen Sie am Montag um 9 Uhr bei uns vorbei.'],
    ['fr', 'Passez nous voir jeudi au dépôt.'],
    ['es', 'Pásate el jueves por la nave.'],
    ['pt', 'Venha aqui na quinta de manhã.'],
    ['it', 'Passate pure lunedì alle 9 in magazzino.'],
    ['nl', 'Komt u vrijdag om 10.30 uur even langs?'],
    ['de', 'Buchen Sie direkt einen Termin in meinem Kalender.'],
    ['fr', 'Choisissez un créneau dans mon agenda.'],
    ['es', 'Elija una hora en mi agenda.'],
    ['pt', 'Marque um horário na minha agenda.'],
    ['it', 'Prenota uno slot dal mio calendario.'],
    ['nl', 'Plan een afspraak in via mijn agenda.'],
    ['de', 'Könnten Sie uns Mittwoch gegen 11 anrufen?'],
    ['en', "Let's do a quick call Monday."],
    ['it', 'Ci sentiamo lunedì mattina?'],
    ['nl', 'Zullen we dinsdag om 9.30 even bellen?'],
    // a call or meeting and a day or time in one sentence; asking whether a time suits
    ['es', '¿Te viene bien una llamada el martes a las 11?'],
    ['fr', 'Je vous propose un échange mardi à 11h.'],
    ['pt', 'Que tal uma reunião na terça às 10h?'],
    ['it', 'Le propongo un incontro giovedì alle 10.'],
    ['nl', 'Past dinsdag om 10 uur voor een gesprek?'],
    ['de', 'Passt Ihnen Dienstag 10 Uhr?'],
    ['en', 'Send me a few times that work next week.'],
    // a busy "not now" that asks to be called later asks to meet
    ['es', 'Ahora no puedo, llámame mañana a las 10.'],
    ['nl', 'Ik kan nu niet, bel me morgen om 10 uur.'],
  ])('%s: "%s" asks to meet', (_lang, text) => {
    expect(classOf(text)).toBe('meeting_request');
  });

  it('a day and time proposed in a sentence of its own is a meeting request (the class definition: "gives a time slot")', () => {
    expect(classOf('Sure, happy to chat. How about Thursday at 2pm?')).toBe('meeting_request');
  });

  it('"sick of your mails" is no sick leave', () => {
    expect(classOf('Ik ben ziek van jullie mails.')).not.toBe('out_of_office');
  });

  it('a refusal to be called is not a meeting request', () => {
    expect(classOf('Bel me niet meer, dank je.')).not.toBe('meeting_request');
  });

  it('a decline that names a replacement address is wrong_person, with the referral', () => {
    const got = classifyReplyText({
      subject: 'Re: A quick idea',
      text: 'Frau Beck ist im Ruhestand. Die Buchhaltung leitet jetzt Herr Yilmaz, k.yilmaz@firma.example. Trotzdem danke.',
    });
    expect(got.replyClass).toBe('wrong_person');
    expect(got.referral).toBe('k.yilmaz@firma.example');
  });

  it('an unsubscribe sent as an auto-reply with a closure sentence still stops, never pauses', () => {
    const got = classifyReplyText({
      subject: 'Automatic reply: A quick idea',
      headers: { 'Auto-Submitted': 'auto-replied' },
      text: 'The office is closed from 1 to 5 May. Please remove us from your lists.',
    });
    expect(got.replyClass).toBe('unsubscribe');
  });
});
