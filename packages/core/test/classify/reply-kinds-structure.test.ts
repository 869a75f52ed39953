import { describe, expect, it } from 'vitest';
import { classifyReplyText } from '../../src/classify/index.js';

// Kinds of failure that holdout-7's and holdout-6's misses showed (both spent), named as
// kinds and written anew in the seven languages (regional variants, informal register,
// missing accents), not copied from the sets: structural ones first (a quoted Outlook
// header block, "not this, but that", words of unsubscribing used as a topic, an
// autoresponder that only says when it is back), then vocabulary. One row a wording:
// [text, class, headers?].
type Row = [string, string, Record<string, string>?];
const AUTO = { 'Auto-Submitted': 'auto-replied' };

// Outlook's quoted header block, localized: the quoted sales mail asks for a meeting,
// the reply itself is neutral.
const OUTLOOK = (from: string, sent: string, to: string, subj: string, body: string) =>
  `\n\n${from}: Vendedor <v@vendor.example>\n${sent}: 16 de novembro de 2026 10:02\n${to}: Ana\n${subj}: Proposta\n\n${body}`;
const QUOTED_HEADER: Row[] = [
  [
    `Are you the same company as the one in Leeds?${OUTLOOK('From', 'Sent', 'To', 'Subject', 'Shall we book a meeting next week?')}`,
    'neutral',
  ],
  [
    `Sind Sie dieselbe Firma wie die aus Köln?${OUTLOOK('Von', 'Gesendet', 'An', 'Betreff', 'Sollen wir einen Termin vereinbaren?')}`,
    'neutral',
  ],
  [
    `Êtes-vous la même société que celle de Lyon ?${OUTLOOK('De', 'Envoyé', 'À', 'Objet', 'On peut caler un rendez-vous ?')}`,
    'neutral',
  ],
  [
    `¿Son la misma empresa que la de Sevilla?${OUTLOOK('De', 'Enviado el', 'Para', 'Asunto', '¿Agendamos una reunión?')}`,
    'neutral',
  ],
  [
    `São a mesma empresa que a de Coimbra?${OUTLOOK('De', 'Enviada', 'Para', 'Assunto', 'Podemos marcar uma reunião?')}`,
    'neutral',
  ],
  [
    `Vocês são a mesma empresa de Curitiba?${OUTLOOK('De', 'Enviado', 'Para', 'Assunto', 'Vamos marcar uma reunião?')}`,
    'neutral',
  ],
  [
    `Siete la stessa azienda di Torino?${OUTLOOK('Da', 'Inviato', 'A', 'Oggetto', 'Possiamo fissare un incontro?')}`,
    'neutral',
  ],
  [
    `Zijn jullie hetzelfde bedrijf als in Gent?${OUTLOOK('Van', 'Verzonden', 'Aan', 'Onderwerp', 'Zullen we een afspraak inplannen?')}`,
    'neutral',
  ],
];

// A form of contact or material turned down, then "but" and what they do want: the
// clause after "but" decides. A decline after "but" still declines.
const BUT_THEN: Row[] = [
  ['No need for the PDF, but I would like to see it live. Thursday 10am?', 'meeting_request'],
  ['We do not need more slides, but send me the price list please.', 'interested'],
  ['Broschüren brauchen wir nicht, aber zeigen Sie es mir gern live, Dienstag 10 Uhr?', 'meeting_request'],
  ['Keine Unterlagen bitte, aber schicken Sie mir ein Angebot für 40 Nutzer.', 'interested'],
  ['Pas besoin de documentation, mais une démo en direct jeudi à 10h me va.', 'meeting_request'],
  ['No necesito catálogos, pero muéstremelo en vivo. ¿Jueves a las 10?', 'meeting_request'],
  ['Nao preciso de folhetos, mas mostre-me ao vivo. Quinta as 15h?', 'meeting_request'],
  ['Non mi servono brochure, ma fammelo vedere dal vivo. Giovedi alle 15?', 'meeting_request'],
  ['Geen folders nodig, maar laat het me live zien. Donderdag om 14 uur?', 'meeting_request'],
  ['The product looks great, but we signed with another provider last month.', 'not_interested'],
  ['Nicht schlecht, aber wir haben schon einen Anbieter.', 'not_interested'],
  ["C'est intéressant, mais nous n'avons pas de budget cette année.", 'not_interested'],
  ['Not interested, but thanks for asking.', 'not_interested'],
];

// Words of unsubscribing as the topic of a question about the product or about other
// people (customers, staff, subscribers): interest, not a request to stop. A request
// addressed to us ("can you unsubscribe me?") stays a stop.
const UNSUBSCRIBE_AS_TOPIC: Row[] = [
  ['Can recipients unsubscribe with one click in your tool? If so, send me pricing.', 'interested'],
  ['Does the platform manage unsubscribe requests for our newsletter? Keen to hear more.', 'interested'],
  ['Können sich Kunden über Ihr Portal selbst abmelden? Dann hätte ich gern ein Angebot.', 'interested'],
  ['Est-ce que vos abonnés peuvent se désabonner en un clic ? Si oui, envoyez-moi vos tarifs.', 'interested'],
  ['¿Su plataforma permite que los usuarios se den de baja solos? Si es así, mándeme precios.', 'interested'],
  [
    'A vossa ferramenta permite que os clientes se descadastrem sozinhos? Se sim, enviem-me os preços.',
    'interested',
  ],
  [
    'Il vostro sistema permette ai dipendenti di disiscriversi dai turni? Se sì, mandatemi i prezzi.',
    'interested',
  ],
  [
    'Kunnen medewerkers zich in jullie app zelf afmelden voor een dienst? Zo ja, stuur me de prijzen.',
    'interested',
  ],
  ['Can you unsubscribe me please?', 'unsubscribe'],
  ['How do I unsubscribe from these emails?', 'unsubscribe'],
  ['I already clicked your unsubscribe link and I still get these.', 'unsubscribe'],
  ['Können Sie mich bitte abmelden?', 'unsubscribe'],
  ['Wie melde ich mich von Ihrem Verteiler ab?', 'unsubscribe'],
  ['Pouvez-vous me désinscrire ?', 'unsubscribe'],
  ['¿Pueden darme de baja?', 'unsubscribe'],
  ['Podem descadastrar-me, por favor?', 'unsubscribe'],
  ['Potete disiscrivermi?', 'unsubscribe'],
  ['Kunt u mij afmelden?', 'unsubscribe'],
];

// An autoresponder (by its headers) whose text only says it is away or ill, when it is
// back, or that answers will be late: an absence. Without the headers, a person who is
// ill but answers stays a person.
const AUTO_ABSENCE: Row[] = [
  ['At a trade show until Thursday, back at my desk on Friday. Expect slow replies.', 'out_of_office', AUTO],
  ["I'm unwell at the moment and will reply once I'm better.", 'out_of_office', AUTO],
  [
    'Ich bin derzeit krankgeschrieben. Ihre Nachricht wird nach meiner Genesung bearbeitet.',
    'out_of_office',
    AUTO,
  ],
  ['Je suis en arrêt maladie. Je traiterai votre message à mon rétablissement.', 'out_of_office', AUTO],
  ['Estoy de baja médica. Contestaré su mensaje cuando me reincorpore.', 'out_of_office', AUTO],
  ['Estou de licença médica. Respondo quando voltar.', 'out_of_office', AUTO],
  ['Encontro-me de baixa. Responderei quando regressar ao escritório.', 'out_of_office', AUTO],
  ['Sono in malattia. Risponderò al mio rientro.', 'out_of_office', AUTO],
  ['Ik ben ziek thuis. Ik beantwoord uw bericht zodra ik hersteld ben.', 'out_of_office', AUTO],
  ['Ik ben momenteel niet aanwezig; reacties kunnen vertraagd zijn.', 'out_of_office', AUTO],
  ["I'm off sick today, but yes, please send me the pricing.", 'interested'],
];

// Declines: "maybe one day, but certainly not now" (an adverb between the time and the
// negation), work done in-house with the object between, satisfied with what they have.
const DECLINES: Row[] = [
  ['Maybe some day, but definitely not right now.', 'not_interested'],
  ['Irgendwann vielleicht, aber jetzt bestimmt nicht.', 'not_interested'],
  ['Momentan sicher nicht, danke.', 'not_interested'],
  ['Peut-être un jour, mais certainement pas maintenant.', 'not_interested'],
  ['Quizás algún día, pero ahora seguro que no.', 'not_interested'],
  ['Talvez um dia, mas agora de certeza que não.', 'not_interested'],
  ['Forse un giorno, ma adesso sicuramente no.', 'not_interested'],
  ['Ooit misschien, maar nu echt niet.', 'not_interested'],
  ['We handle payroll internally and it works fine for us.', 'not_interested'],
  ['Das machen wir alles selbst intern, da brauchen wir keinen.', 'not_interested'],
  ['nee lass mal, haben wir schon', 'not_interested'],
  ['Nous gérons la logistique en interne, ça nous convient très bien.', 'not_interested'],
  ['La contabilidad la llevamos internamente y nos va bien.', 'not_interested'],
  ['Tratamos disso tudo internamente e funciona bem.', 'not_interested'],
  ['Gestiamo i turni internamente e ci troviamo bene.', 'not_interested'],
  ['We regelen dat zelf intern en dat werkt prima.', 'not_interested'],
  ['I will discuss it internally and get back to you.', 'neutral'],
  ['Je vais en parler en interne et je reviens vers vous.', 'neutral'],
];

// Stop requests: tú/vosotros and subjunctive forms, Portuguese enclitics (pt-PT) and
// proclitics (pt-BR), "STOP" with a courtesy word, a politeness word inside the phrase,
// and a decline joined to a stop request (the stop wins).
const STOPS: Row[] = [
  ['Le ruego que borre mi dirección de su base de datos.', 'unsubscribe'],
  ['Te pido que elimines mi correo de tus listas.', 'unsubscribe'],
  ['Quitadme de vuestra lista, porfa.', 'unsubscribe'],
  ['Retirem-me da lista, por favor.', 'unsubscribe'],
  ['Removam o meu e-mail da vossa base de dados.', 'unsubscribe'],
  ['Me tirem dessa lista.', 'unsubscribe'],
  ['Ja me descadastrei e continuo recebendo. Parem.', 'unsubscribe'],
  ['STOP grazie', 'unsubscribe'],
  ['Stop, danke.', 'unsubscribe'],
  ['STOP merci', 'unsubscribe'],
  ['stop gracias', 'unsubscribe'],
  ['STOP obrigado', 'unsubscribe'],
  ['Stop bedankt', 'unsubscribe'],
  ['STOP thanks', 'unsubscribe'],
  ['Stuur me alsjeblieft niets meer.', 'unsubscribe'],
  ['Mail me a.u.b. niet meer.', 'unsubscribe'],
  ['Kein Interesse und bitte keine Mails mehr.', 'unsubscribe'],
  ["Pas intéressé et ne m'écrivez plus.", 'unsubscribe'],
  ['Geen interesse, stuur me svp niks meer.', 'unsubscribe'],
];

// Wrong person: a namesake ("the wrong John Smith"), "X is who you want", a retirement
// in Portuguese clitic forms, "I don't decide on that", only an intern.
const WRONG: Row[] = [
  ["Wrong John Smith, I'm afraid - I'm a dentist.", 'wrong_person'],
  ["I think you've got the wrong Maria Lopez, I work in a bakery.", 'wrong_person'],
  ['I do finance. For anything IT, Dave in procurement is who you want: dave@acme.example', 'wrong_person'],
  ['Sie haben wohl den falschen Thomas Müller erwischt, ich bin Lehrer.', 'wrong_person'],
  ['Vous vous trompez de Pierre Martin, je suis boulanger.', 'wrong_person'],
  ['Creo que se ha equivocado de persona, soy profesor.', 'wrong_person'],
  ['Acho que se enganou na pessoa, sou enfermeira.', 'wrong_person'],
  ['Credo abbia sbagliato persona, faccio l’insegnante.', 'wrong_person'],
  ['U heeft de verkeerde Jan de Vries, ik ben bakker.', 'wrong_person'],
  ['O Sr. Costa reformou-se em junho. Pode falar com o sucessor: rui.melo@costa.example', 'wrong_person'],
  ['A Dona Ana aposentou-se; quem a substitui é a Paula: paula@loja.example', 'wrong_person'],
  ['Ik ben hier maar stagiair, ik ga daar niet over.', 'wrong_person'],
  ['Darüber entscheide ich nicht, das macht die Geschäftsführung.', 'wrong_person'],
  ["Ce n'est pas moi qui décide de ces achats.", 'wrong_person'],
  ['No soy yo quien decide estas compras.', 'wrong_person'],
  ['Não sou eu que decido essas compras.', 'wrong_person'],
  ['Non decido io su queste cose.', 'wrong_person'],
  ['Je travaille au service commercial, ce sujet ne me concerne pas.', 'wrong_person'],
];

// Meeting requests: an assistant who will set the time, a visit in the informal
// register, a day of the month offered, "call me" with Portuguese clitics, a demo and a
// part of a day, a short call that "is possible".
const MEETINGS: Row[] = [
  ['Yes, my PA will reach out to set something up.', 'meeting_request'],
  ['Meine Assistentin meldet sich bei Ihnen wegen eines Termins.', 'meeting_request'],
  ['Mon assistante va vous contacter pour caler un créneau.', 'meeting_request'],
  ['Mi secretaria le escribirá para buscar un hueco en la agenda.', 'meeting_request'],
  ['A minha assistente vai entrar em contacto para marcar um horário.', 'meeting_request'],
  ['La mia assistente la contatterà per fissare un appuntamento.', 'meeting_request'],
  ['Mijn assistent neemt contact met u op om een afspraak in te plannen.', 'meeting_request'],
  ['Swing by our office some day and we can look at it together. Does the 14th work?', 'meeting_request'],
  ['Pásate por la oficina y lo vemos juntos, ¿te va bien el 14?', 'meeting_request'],
  ['Passa da noi in ufficio, il 14 ti va?', 'meeting_request'],
  ['Passez nous voir au bureau, le 14 ça vous va ?', 'meeting_request'],
  ['Kommen Sie doch bei uns vorbei, passt Ihnen der 14.?', 'meeting_request'],
  ['Passe cá no escritório, pode ser no dia 14?', 'meeting_request'],
  ['Kom even langs op kantoor, past de 14e?', 'meeting_request'],
  ['Ligue-me amanhã às 10h.', 'meeting_request'],
  ['Pode ligar-me amanhã de manhã para o 912 000 111.', 'meeting_request'],
  ['Me liga amanhã de manhã, 11 98888-0000.', 'meeting_request'],
  ['Llámeme mañana por la mañana al 600 111 222.', 'meeting_request'],
  ['Conseguem fazer uma demonstração na quinta à tarde?', 'meeting_request'],
  ['Kunnen jullie dinsdagmiddag een demo geven?', 'meeting_request'],
  ['¿Pueden hacernos una demostración el martes por la tarde?', 'meeting_request'],
  ['Potete farci una dimostrazione mercoledì pomeriggio?', 'meeting_request'],
  ['Geen tijd voor lange documenten, maar een kort belletje dinsdag kan wel.', 'meeting_request'],
];

// Interest: samples to test, "send me" with a particle between, price questions, "I'd
// like to know more" in pt-PT, references and case studies asked for, a dossier.
const INTEREST: Row[] = [
  ['Could you send a few samples? We would test them.', 'interested'],
  ['Können Sie uns ein paar Muster schicken? Dann probieren wir das aus.', 'interested'],
  ['Pouvez-vous nous envoyer des échantillons ? On les testera.', 'interested'],
  ['¿Nos pueden mandar unas muestras para probar?', 'interested'],
  ['Podem enviar-nos amostras para testarmos?', 'interested'],
  ['Potete mandarci dei campioni da provare?', 'interested'],
  ['Kunnen jullie wat proefexemplaren sturen? Dan testen we het.', 'interested'],
  ['Mi mandi pure il listino.', 'interested'],
  ['Schicken Sie mir ruhig mal Unterlagen.', 'interested'],
  ['Stuur maar gerust wat informatie.', 'interested'],
  ['Non sono contrario. Che prezzi avete?', 'interested'],
  ['Que preços praticam?', 'interested'],
  ['¿Qué precios manejan?', 'interested'],
  ['Welke prijzen hanteren jullie?', 'interested'],
  ['Gostava de saber mais.', 'interested'],
  ['Sim, quero saber mais.', 'interested'],
  ['¿Tienen casos de éxito en hostelería? Me gustaría verlos.', 'interested'],
  ['Avete referenze nel settore alberghiero?', 'interested'],
  ['Hebben jullie referenties in de zorg? Ik zie graag voorbeelden.', 'interested'],
  ['Vocês têm casos de clientes no retalho? Gostava de ver exemplos.', 'interested'],
  ['Haben Sie Referenzen aus unserer Branche?', 'interested'],
  ['Avez-vous des références dans l’hôtellerie ?', 'interested'],
  ['Do you have any case studies in retail?', 'interested'],
  ['¿Se integra con SAP? Si es así, mándeme un dossier.', 'interested'],
  ['Schicken Sie mir bitte eine Preisübersicht.', 'interested'],
  ['Stuur me maar een prijsoverzicht.', 'interested'],
  ['Integra com o Primavera? Se sim, mande-me uma apresentação.', 'interested'],
  ['Envie-me a tabela de preços, por favor.', 'interested'],
  ['De acuerdo con el artículo 15 del RGPD, díganme de dónde han sacado mis datos.', 'neutral'],
  ['Ai sensi dell’art. 15 GDPR, d’accordo con la normativa, da dove avete preso i miei dati?', 'neutral'],
];

// Delivery notices written as text: "we could not deliver your message" in each language
// with a reply or status code ("554:" as qmail and Yahoo write it), some marked
// auto-replied (they must stop, never pause).
const BOUNCES: Row[] = [
  [
    'No hemos podido entregar su mensaje a este destinatario.\n<x@dominio.example>:\n554: usuario desconocido',
    'bounce',
  ],
  [
    'Não foi possível entregar a sua mensagem.\n<x@dominio.example>\n550 5.1.1 Utilizador desconhecido',
    'bounce',
    AUTO,
  ],
  ['Non è stato possibile consegnare il messaggio.\n550 5.1.1 Utente sconosciuto', 'bounce'],
  ["Nous n'avons pas pu remettre votre message.\n550 5.1.1 Adresse inconnue", 'bounce', AUTO],
  ['Wir konnten Ihre Nachricht nicht zustellen.\n550 5.1.1 Empfänger unbekannt', 'bounce'],
  ['We konden uw bericht niet afleveren.\n550 5.1.1 Onbekende ontvanger', 'bounce'],
  ['We were unable to deliver your message.\n554: mailbox does not exist', 'bounce', AUTO],
];

const ALL: [string, Row[]][] = [
  ['delivery notices written as text', BOUNCES],
  ['a quoted Outlook header block does not decide', QUOTED_HEADER],
  ['not this, but that: the clause after "but" decides', BUT_THEN],
  ['words of unsubscribing as a topic', UNSUBSCRIBE_AS_TOPIC],
  ['an autoresponder that only says it is away, ill or back later', AUTO_ABSENCE],
  ['declines', DECLINES],
  ['stop requests', STOPS],
  ['wrong person', WRONG],
  ['meeting requests', MEETINGS],
  ['interest', INTEREST],
];

for (const [kind, rows] of ALL) {
  describe(`reply kinds: ${kind}`, () => {
    it.each(rows)('%s -> %s', (text, expected, headers) => {
      const got = classifyReplyText({ subject: 'Re: Offer', text, headers });
      expect(got.replyClass, got.why.join(' | ')).toBe(expected);
    });
  });
}
