import { describe, expect, it } from 'vitest';
// These cases pin the rules' own readings (classifyReplyText adds the learned model's second
// opinion, which reads some of these near-misses differently: see reply-model.test.ts).
import { classifyReplyTextByRules as classifyReplyText } from '../../src/classify/classify-reply-text.js';

// Kinds of reply in the classes holdout-7's aggregate cells showed weakest (meeting_request,
// interested, unsubscribe, wrong_person, German declines), written anew per language from
// the class definitions (test/fixtures/replies-multilingual/README.md) as prospects write
// them: formal and informal, typos, missing accents, the sales mail quoted below. No entry
// or miss of holdout-7 was read. One row a wording: [text, class].
type Row = [string, string];

const QUOTE_EN =
  '\n\nOn Tue, 24 Nov 2026 at 09:12, Sam Reed <sam@vendor.example> wrote:\n> Would you be open to a quick call?\n> If not, just tell me and I will stop.';
const QUOTE_DE =
  '\n\nAm 24.11.2026 um 09:12 schrieb Sam Reed <sam@vendor.example>:\n> Hätten Sie Interesse an einem kurzen Gespräch?\n> Falls nicht, sagen Sie einfach Bescheid.';

const MEETING: Row[] = [
  ['Happy to chat next week. Tuesday or Wednesday afternoon works for me.', 'meeting_request'],
  ['Sure, send me a calendar invite for Thursday 3pm.', 'meeting_request'],
  [`Let's set up 20 minutes, what does your availability look like on Monday?${QUOTE_EN}`, 'meeting_request'],
  ['can we hop on a quick call tmrw? im free after lunch', 'meeting_request'],
  ['Do you have a link where I can grab a slot?', 'meeting_request'],
  ['Gerne können wir nächste Woche telefonieren, Dienstag ab 14 Uhr passt mir.', 'meeting_request'],
  [`Schicken Sie mir bitte ein paar Terminvorschläge für ein kurzes Gespräch.${QUOTE_DE}`, 'meeting_request'],
  ['Lass uns mal kurz quatschen, hast du Donnerstag Zeit?', 'meeting_request'],
  ['Können Sie mir eine Einladung für Mittwoch 10:00 schicken?', 'meeting_request'],
  ['Volontiers pour un échange la semaine prochaine, mardi matin vous conviendrait ?', 'meeting_request'],
  ['Envoyez-moi une invitation pour jeudi 14h, on en discute.', 'meeting_request'],
  ['On peut se caler un appel de 15 min ? Je suis dispo vendredi.', 'meeting_request'],
  ['Con gusto podemos hablar la semana que viene, el martes por la tarde me viene bien.', 'meeting_request'],
  ['Mandame una invitacion para el jueves a las 4 y lo vemos.', 'meeting_request'],
  ['¿Agendamos una llamada? Tengo hueco el miércoles por la mañana.', 'meeting_request'],
  ['Me puede proponer un par de horarios para una reunion corta?', 'meeting_request'],
  ['Podemos conversar na próxima semana, terça à tarde fica bom pra mim.', 'meeting_request'],
  ['Me manda um convite para quinta às 10h que a gente conversa.', 'meeting_request'],
  ['Vamos marcar uma call rapida? Tenho disponibilidade na sexta.', 'meeting_request'],
  ['Pode sugerir alguns horários para uma reunião?', 'meeting_request'],
  ['Volentieri possiamo sentirci la settimana prossima, martedì pomeriggio va bene.', 'meeting_request'],
  ['Mi mandi un invito per giovedì alle 15 e ne parliamo.', 'meeting_request'],
  ['Fissiamo una call di mezz’ora? Sono libero venerdì mattina.', 'meeting_request'],
  ['Graag plannen we volgende week een gesprek, dinsdagmiddag komt mij goed uit.', 'meeting_request'],
  ['Stuur me een uitnodiging voor donderdag 15.00 uur, dan bespreken we het.', 'meeting_request'],
  ['Zullen we even bellen? Ik heb vrijdagochtend tijd.', 'meeting_request'],
];

const INTERESTED: Row[] = [
  ['Sounds interesting, can you send me a deck?', 'interested'],
  ['This could be useful for us. What would it cost for a team of 12?', 'interested'],
  ['Klingt spannend. Schicken Sie mir gerne Unterlagen dazu.', 'interested'],
  ['Das könnte für uns passen, was kostet das ungefähr für 20 Nutzer?', 'interested'],
  ['Hört sich gut an, hast du eine Präsentation, die du mir schicken kannst?', 'interested'],
  [`Interessant, ich würde gern mehr darüber erfahren.${QUOTE_DE}`, 'interested'],
  ['Ça m’intéresse, pouvez-vous m’envoyer une plaquette ?', 'interested'],
  ['Me interesa, ¿me puede enviar más información y precios?', 'interested'],
  ['Tenho interesse, pode me mandar uma apresentação?', 'interested'],
  ['Sembra interessante, mi può mandare una presentazione?', 'interested'],
  ['Mi interessa, quanto costerebbe per 15 utenti?', 'interested'],
  ['Potrebbe fare al caso nostro. Avete del materiale da condividere?', 'interested'],
  ['Klinkt interessant, kun je me een presentatie sturen?', 'interested'],
];

const UNSUBSCRIBE: Row[] = [
  ['Please take me off your mailing list.', 'unsubscribe'],
  ['Bitte streichen Sie mich aus Ihrem Verteiler.', 'unsubscribe'],
  ['Merci de me retirer de vos envois.', 'unsubscribe'],
  ['Por favor, quítenme de su lista de correos.', 'unsubscribe'],
  ['Por favor me tirem da lista de e-mails.', 'unsubscribe'],
  ['Não quero receber mais e-mails de vocês.', 'unsubscribe'],
  ['Pare de me enviar mensagens, obrigado.', 'unsubscribe'],
  ['Vi prego di cancellarmi dalla vostra mailing list.', 'unsubscribe'],
  ['Haal me alstublieft van jullie mailinglijst.', 'unsubscribe'],
  ['Ik wil geen e-mails meer van jullie ontvangen.', 'unsubscribe'],
  ['Stop met mailen aub.', 'unsubscribe'],
];

const WRONG_PERSON: Row[] = [
  ["I'm not the person you want for this. Try our ops lead, Dana.", 'wrong_person'],
  ["This isn't something I handle, you'd need to speak to procurement.", 'wrong_person'],
  ["I'm in marketing, not IT, so this doesn't land with me.", 'wrong_person'],
  ['Dafür bin ich nicht zuständig, wenden Sie sich bitte an unseren Einkauf.', 'wrong_person'],
  ['Je ne suis pas la bonne personne pour ce sujet, voyez avec notre DSI.', 'wrong_person'],
  ['No soy la persona indicada, eso lo lleva el área de compras.', 'wrong_person'],
  ['Não sou eu que cuido disso, fale com o financeiro.', 'wrong_person'],
  ['Non sono la persona giusta, se ne occupa l’ufficio acquisti.', 'wrong_person'],
  ['Daar ga ik niet over, neem contact op met onze inkoopafdeling.', 'wrong_person'],
];

const GERMAN_DECLINE: Row[] = [
  ['Danke, aber wir haben dafür schon eine Lösung.', 'not_interested'],
  ['Aktuell kein Interesse, vielen Dank.', 'not_interested'],
  ['Wir sind mit unserem jetzigen Anbieter zufrieden.', 'not_interested'],
  ['Das passt gerade nicht, wir haben andere Prioritäten.', 'not_interested'],
  ['Vielen Dank für das Angebot, wir verzichten.', 'not_interested'],
  [`Brauchen wir nicht, danke.${QUOTE_DE}`, 'not_interested'],
  ['Dafür haben wir leider kein Budget.', 'not_interested'],
  ['Wir haben uns für einen anderen Anbieter entschieden.', 'not_interested'],
  ['Nein danke, ist für uns kein Thema.', 'not_interested'],
  ['Momentan nicht, vielleicht im nächsten Jahr wieder.', 'not_interested'],
];

// A second round, written after the first read 66/79, in wordings further from the
// textbook: hedged, chatty, with typos and without accents.
const SECOND_ROUND: Row[] = [
  ['Could work. Whats a good time for you to walk me thru it?', 'meeting_request'],
  ['ok lets talk. my cell is 555 0142, afternoons are best', 'meeting_request'],
  ['Gerne, wann passt es Ihnen diese Woche fur ein kurzes Telefonat?', 'meeting_request'],
  ['Koennen wir naechste Woche mal telefonieren?', 'meeting_request'],
  ['Ok pour un point rapide, je vous laisse me proposer un creneau.', 'meeting_request'],
  ['Dispo mardi ou jeudi apres 16h pour en parler.', 'meeting_request'],
  ['Podriamos vernos un rato la semana que viene?', 'meeting_request'],
  ['Claro, me llamas el lunes por la mañana?', 'meeting_request'],
  ['Pode ser, que dia voce tem livre na semana que vem?', 'meeting_request'],
  ['Quando ti andrebbe bene fare due chiacchiere?', 'meeting_request'],
  ['Prima, wanneer komt het jou uit om even te bellen?', 'meeting_request'],
  ['Interesting timing, we were just talking about this. Do you have a one-pager?', 'interested'],
  ['Könnten Sie mir ein Angebot für 3 Standorte machen?', 'interested'],
  ['Was würde das bei uns ungefähr kosten? Wir sind 40 Leute.', 'interested'],
  ['Tönt gut, bitte mehr Infos per Mail.', 'interested'],
  ['Pourriez-vous me faire parvenir une offre ?', 'interested'],
  ['Nos podria pasar una cotizacion?', 'interested'],
  ['Gostaria de receber um orçamento.', 'interested'],
  ['Mi farebbe piacere ricevere un preventivo.', 'interested'],
  ['Graag ontvang ik een offerte.', 'interested'],
  ['Wat zijn de kosten voor ons team van 8 personen?', 'interested'],
  ['Bitte nehmen Sie mich aus dem Verteiler raus.', 'unsubscribe'],
  ['Ich möchte keine Mails mehr von Ihnen bekommen.', 'unsubscribe'],
  ['Je ne souhaite plus être contacté.', 'unsubscribe'],
  ['No me escriban mas por favor.', 'unsubscribe'],
  ['Remova meu contato da sua base, por favor.', 'unsubscribe'],
  ['Nao me enviem mais emails.', 'unsubscribe'],
  ['Non scrivetemi più, grazie.', 'unsubscribe'],
  ['Toglietemi dalla lista per favore.', 'unsubscribe'],
  ['Graag uitschrijven.', 'unsubscribe'],
  ['Verwijder mijn gegevens alstublieft uit jullie bestand.', 'unsubscribe'],
  ['Mail me niet meer a.u.b.', 'unsubscribe'],
  ['Not me, I only cover the UK accounts. Try my colleague in Berlin.', 'wrong_person'],
  ['I have nothing to do with purchasing, sorry.', 'wrong_person'],
  ['Da sind Sie bei mir an der falschen Adresse.', 'wrong_person'],
  ['Das entscheidet bei uns die Geschäftsführung, nicht ich.', 'wrong_person'],
  ["Ce n'est pas moi qui gère ça, c'est notre directeur financier.", 'wrong_person'],
  ['Eso no lo decido yo, lo ve gerencia.', 'wrong_person'],
  ['Quem decide isso é a diretoria, não eu.', 'wrong_person'],
  ['Non me ne occupo io, deve scrivere al responsabile IT.', 'wrong_person'],
  ['Dat beslis ik niet, dat doet onze directeur.', 'wrong_person'],
  ['Ik ben niet de juiste persoon hiervoor.', 'wrong_person'],
  ['Wir machen das intern, danke.', 'not_interested'],
  ['Das ist für uns leider nicht interessant.', 'not_interested'],
  ['Wir haben gerade erst einen Vertrag verlängert.', 'not_interested'],
  ['Lieber nicht, danke.', 'not_interested'],
  ['Leider nein.', 'not_interested'],
  ['Sehe ich bei uns nicht.', 'not_interested'],
  ['Dieses Jahr nicht mehr, das Budget ist verplant.', 'not_interested'],
  ['Wir sind da anderweitig aufgestellt.', 'not_interested'],
];

// The same words in another class: a refused call, a budget that is not frozen, a list
// that is not a mailing list.
const NEAR_MISSES: Row[] = [
  ["I don't want to book a call, please just remove me from your list.", 'unsubscribe'],
  ['No need for a call, just send me the pricing.', 'interested'],
  ['No budget freeze here, send me a quote for 40 seats.', 'interested'],
  ['Kein Termin nötig, schicken Sie mir einfach die Preisliste.', 'interested'],
  ['Wir haben keinen Bedarf an einem Termin, bitte keine weiteren E-Mails.', 'unsubscribe'],
  ['Pas besoin d’appel, envoyez-moi simplement la brochure.', 'interested'],
  ['No hace falta una llamada, mándeme el precio.', 'interested'],
  ['Não precisa de reunião, me mande os preços.', 'interested'],
  ['Non serve una call, mi mandi il listino.', 'interested'],
  ['Een gesprek is niet nodig, stuur me de prijzen maar.', 'interested'],
];

// A third round for the cells that stayed weakest (English, Spanish and Portuguese
// meetings, English wrong person, Portuguese and Dutch opt-outs, Italian and German
// interest, German declines), in registers the first two rounds did not use.
const THIRD_ROUND: Row[] = [
  ["Happy to take a look together. I'm around most of next week, just pick a time.", 'meeting_request'],
  ["Let's find 30 min next week, my EA Jo can sort out the time.", 'meeting_request'],
  ['Sure thing. Mornings are easiest for me, shoot me an invite.', 'meeting_request'],
  ['Would be good to connect. Are you around Thursday?', 'meeting_request'],
  ['Tengo un hueco el jueves a las 12, ¿te encaja?', 'meeting_request'],
  ['Perfecto, hablamos por teléfono mañana, ¿a qué hora le viene mejor?', 'meeting_request'],
  ['Podemos vernos en la feria la semana que viene si quiere.', 'meeting_request'],
  ['Me interesa, organicemos una videollamada cuando pueda.', 'meeting_request'],
  ['Podemos bater um papo na quinta de manhã?', 'meeting_request'],
  ['Topo uma call. Qual horário fica melhor pra você?', 'meeting_request'],
  ['Me liga amanhã depois das 14h.', 'meeting_request'],
  ['Vamos conversar. Estou livre terça à tarde.', 'meeting_request'],
  ["I'm not the person to speak to about this. Our COO makes those calls.", 'wrong_person'],
  ['Wrong inbox, I look after payroll only.', 'wrong_person'],
  ["You'd be better off talking to our IT manager.", 'wrong_person'],
  ["I'm just the office manager, I can't help with software decisions.", 'wrong_person'],
  ['Unfortunately this is outside my remit. Facilities handles it.', 'wrong_person'],
  ['Favor remover meu e-mail da lista.', 'unsubscribe'],
  ['Não tenho interesse, e não quero mais receber contato. Descadastrar.', 'unsubscribe'],
  ['Por gentileza, excluam meus dados do cadastro de vocês (LGPD).', 'unsubscribe'],
  ['Parem de mandar e-mail, por favor.', 'unsubscribe'],
  ['Tira meu nome daí, valeu.', 'unsubscribe'],
  ['Wilt u mij uit uw bestand verwijderen?', 'unsubscribe'],
  ['Ik ontvang graag geen berichten meer van u.', 'unsubscribe'],
  ['Gelieve mijn adres te verwijderen (AVG).', 'unsubscribe'],
  ['Niet meer mailen svp.', 'unsubscribe'],
  ['Uitschrijven graag, bedankt.', 'unsubscribe'],
  ['Interessante, può dirmi di più?', 'interested'],
  ['Ci farebbe comodo. Come funziona con il nostro gestionale?', 'interested'],
  ['Mi giri pure qualche informazione in più, grazie.', 'interested'],
  ['Mandatemi una brochure, la guardo volentieri.', 'interested'],
  ['Quali sono i costi?', 'interested'],
  ['Wäre grundsätzlich spannend. Gibt es eine Testversion?', 'interested'],
  ['Können Sie mir sagen, was das im Monat kostet?', 'interested'],
  ['Da würde ich mir gern mehr ansehen, haben Sie ein Video?', 'interested'],
  ['Wir sind aktuell nicht auf der Suche.', 'not_interested'],
  ['Für uns nicht relevant, trotzdem danke.', 'not_interested'],
  ['Das haben wir bereits im Griff.', 'not_interested'],
  ['Wir wollen dieses Jahr nichts Neues einführen.', 'not_interested'],
  ['Bitte sehen Sie von weiteren Angeboten ab, wir haben keinen Bedarf.', 'not_interested'],
];

// A fourth round across the languages the earlier rounds gave fewer rows, in every weak
// class, written before the rules it led to.
const FOURTH_ROUND: Row[] = [
  ['Je veux bien qu’on en parle de vive voix. Un créneau jeudi ?', 'meeting_request'],
  ['Appelez-moi demain matin au bureau.', 'meeting_request'],
  ['Avec plaisir pour une démo, je vous laisse caler ça avec mon assistante.', 'meeting_request'],
  ['Sentiamoci per telefono, io ci sono tutta la mattina di lunedì.', 'meeting_request'],
  ['Mi proponga lei un paio di date per una call.', 'meeting_request'],
  ['Laten we volgende week even sparren, dinsdag of woensdag?', 'meeting_request'],
  ['Kunnen we een kennismakingsgesprek plannen?', 'meeting_request'],
  ['Plan gerust een half uurtje in mijn agenda.', 'meeting_request'],
  ['Schick mir einfach einen Termin für nächste Woche.', 'meeting_request'],
  ['Dejame un par de fechas y lo cuadramos.', 'meeting_request'],
  ['No soy yo quien lleva esto, escribale a Marta de operaciones.', 'wrong_person'],
  ['Esto no es de mi departamento.', 'wrong_person'],
  ['Non è di mia competenza, provi con l’ufficio tecnico.', 'wrong_person'],
  ['Io non c’entro, se ne occupa il mio collega Paolo.', 'wrong_person'],
  ['Je ne m’occupe pas de ces sujets.', 'wrong_person'],
  ['Niet mijn afdeling, probeer het bij inkoop.', 'wrong_person'],
  ['Isso não é comigo, é com o pessoal de TI.', 'wrong_person'],
  ['Das ist nicht mein Bereich, da müssten Sie die IT fragen.', 'wrong_person'],
  ['Merci mais nous sommes déjà équipés et satisfaits.', 'not_interested'],
  ['Ce n’est pas d’actualité chez nous.', 'not_interested'],
  ['No es algo que necesitemos ahora mismo.', 'not_interested'],
  ['Lo hacemos internamente, gracias igual.', 'not_interested'],
  ['Agradeço, mas já temos um fornecedor.', 'not_interested'],
  ['Não é o momento, talvez no ano que vem.', 'not_interested'],
  ['Al momento non ci interessa, grazie.', 'not_interested'],
  ['Siamo già coperti su questo fronte.', 'not_interested'],
  ['We hebben hier geen behoefte aan.', 'not_interested'],
  ['Dat doen we zelf, bedankt.', 'not_interested'],
  ['Merci de supprimer mon adresse de votre fichier.', 'unsubscribe'],
  ['Borren mis datos, por favor.', 'unsubscribe'],
  ['Cancellate il mio indirizzo dai vostri elenchi.', 'unsubscribe'],
  ['Please stop emailing this address.', 'unsubscribe'],
  ['Envoyez-moi votre grille tarifaire, svp.', 'interested'],
  ['Me interesaría ver cómo funciona con nuestro ERP.', 'interested'],
  ['Dat klinkt goed, wat kost het per maand?', 'interested'],
  ['Vorrei saperne di più.', 'interested'],
];

// Written after the rules above, against them: the new rules' words in another kind.
// 7 of 12 read right before the rules were narrowed (a whole-reply "Lieber nicht", "nicht
// als Problem", a question "quem decide isso?", time had on a past Monday; and "fuera" taken
// for "fuer", which two older Spanish absences showed).
const NEAR_THE_NEW_RULES: Row[] = [
  ['Lieber nicht per Telefon, schicken Sie mir bitte die Unterlagen.', 'interested'],
  ['Sehe ich bei uns nicht als Problem. Was kostet das für 10 Nutzer?', 'interested'],
  ['Mehr Infos brauche ich nicht, danke.', 'not_interested'],
  ['No need for a call on Tuesday, we are not interested.', 'not_interested'],
  ["I don't need a demo, the trial was enough. What does it cost for 12 users?", 'interested'],
  ['Kein Termin nötig.', 'not_interested'],
  ['Quem decide isso? E quanto custa?', 'interested'],
  ['My phone number changed last month, please update your records.', 'neutral'],
  ['Who decides this is our board, not me.', 'wrong_person'],
  ['Nos mande o preço, por favor.', 'interested'],
  ['Haben Sie am Montag Zeit gehabt, die Unterlagen zu lesen?', 'neutral'],
  ['No budget freeze here.', 'neutral'],
  // "fuer" read as German "für" only as a whole word: Spanish "fuera" stays.
  ['Estoy fuera de la oficina hasta el lunes.', 'out_of_office'],
  // and the third round's words in another kind, 5 of 6 right once written (the decline
  // with a split verb, "führen ... nichts Neues ein", led to a rule):
  ['Wir haben das noch nicht im Griff. Was kostet das?', 'interested'],
  ["I'm only the founder, so I can't wait to see this. Send me the deck.", 'interested'],
  ['Drop me a line if anything changes.', 'neutral'],
  ['Não tenho tempo para um papo na quinta, obrigado, não temos interesse.', 'not_interested'],
  ['Wir führen dieses Jahr nichts Neues ein.', 'not_interested'],
  ['Come funziona con il nostro gestionale?', 'interested'],
  // and the fourth round's (all right once written, after "non siamo coperti" was kept
  // out of the decline):
  ['Non siamo coperti su questo, quanto costa?', 'interested'],
  ['No estamos cubiertos en eso, ¿cuánto cuesta?', 'interested'],
  ['No slot on Tuesday works, we are not interested.', 'not_interested'],
  ['Ik heb de webinar al in mijn agenda gezet.', 'neutral'],
  ['Ho messo il webinar nel mio calendario, grazie.', 'neutral'],
  ['Non è qualcosa di cui abbiamo bisogno.', 'not_interested'],
];

describe.each([
  ['asking for or proposing a call, slot or invite', MEETING],
  ['asking for a deck, material or a price', INTERESTED],
  ['asking to be taken off a list', UNSUBSCRIBE],
  ['not the person who handles it', WRONG_PERSON],
  ['German declines', GERMAN_DECLINE],
  ['a second round, further from the textbook', SECOND_ROUND],
  ['near misses: the same words in another kind', NEAR_MISSES],
  ['near the new rules: their words in another kind', NEAR_THE_NEW_RULES],
  ['a third round for the weakest cells', THIRD_ROUND],
  ['a fourth round across the languages', FOURTH_ROUND],
])('%s', (_kind, rows) => {
  it.each(rows)('%s -> %s', (text, label) => {
    expect(classifyReplyText({ subject: 'Re: hello', text }).replyClass).toBe(label);
  });
});
