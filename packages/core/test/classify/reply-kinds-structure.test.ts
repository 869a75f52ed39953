import { describe, expect, it } from 'vitest';
// These cases pin the rules' own readings (classifyReplyText adds the learned model's second
// opinion, which reads one of them, "could you propose two dates", as interested: see
// reply-model.test.ts and docs/reply-model.md).
import { classifyReplyTextByRules as classifyReplyText } from '../../src/classify/classify-reply-text.js';

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

// A second round, written after the rules above were made, in other wordings of the same
// kinds and near misses of the new rules (a past illness, "if it works well for us", "el
// 14 %", a mailbox named after "wrong"): 91/118 read right before the rules they led to
// (a tool of their own, a supplier without an article, passive "abgemeldet werden",
// pt-PT "anulem a subscrição", "o meu contacto", first-person "je ne suis plus chez",
// "vuelvo el lunes" in an autoresponder, "schauen Sie vorbei", "visitar-nos", a trial
// version, "walkthrough").
const SECOND_ROUND: Row[] = [
  // but-clause, other wordings
  ["I don't want a 40-page PDF, but a 20 min walkthrough on Tuesday could work.", 'meeting_request'],
  ['Kein Interesse an Flyern, aber ein Angebot für 3 Standorte würde ich mir ansehen.', 'interested'],
  ["Je n'ai pas besoin d'une plaquette, mais envoyez-moi un devis pour 12 postes.", 'interested'],
  ['No me hace falta el catálogo, pero sí me interesaría saber el precio para 5 sedes.', 'interested'],
  ['Não preciso de apresentação, mas gostava de saber quanto custa para 8 lojas.', 'interested'],
  ['Il catalogo non mi serve, ma mi mandi un preventivo per 3 magazzini.', 'interested'],
  ['Een brochure hoeft niet, maar een offerte voor 4 vestigingen wel graag.', 'interested'],
  ['Sounds nice, but we have no budget until 2028.', 'not_interested'],
  ['Klingt gut, aber wir sind vertraglich gebunden bis 2027.', 'not_interested'],
  ['Bonne idée, mais nous venons de signer avec un concurrent.', 'not_interested'],
  ['Interesante, pero ya trabajamos con otro proveedor.', 'not_interested'],
  ['Parece bom, mas já temos fornecedor.', 'not_interested'],
  ['Interessante, ma abbiamo già un fornitore.', 'not_interested'],
  ['Klinkt leuk, maar we hebben al een leverancier.', 'not_interested'],
  // unsubscribe topic: near misses and true stops
  ['Please unsubscribe me, and tell your colleagues too.', 'unsubscribe'],
  ['Unsubscribe. Your tool keeps emailing our staff.', 'unsubscribe'],
  ['Können Ihre Kunden sich eigentlich abmelden? Ich möchte jedenfalls abgemeldet werden.', 'unsubscribe'],
  ['Vos clients peuvent-ils se désinscrire ? Moi je veux être désinscrit.', 'unsubscribe'],
  ['Bitte tragen Sie mich aus Ihrem Verteiler aus.', 'unsubscribe'],
  ['Quiero darme de baja de sus envíos.', 'unsubscribe'],
  ['Por favor, anulem a minha subscrição.', 'unsubscribe'],
  ['Vi prego di cancellarmi dalla vostra mailing list.', 'unsubscribe'],
  ['Graag uitschrijven van deze mailings.', 'unsubscribe'],
  ['Uitschrijven aub', 'unsubscribe'],
  ['Descadastrar, obrigado.', 'unsubscribe'],
  ['cancellami grazie', 'unsubscribe'],
  ['Bitte austragen, danke!', 'unsubscribe'],
  ['Not interested — and please take me off your list.', 'unsubscribe'],
  ['Nicht interessiert. Bitte nehmen Sie mich aus dem Verteiler.', 'unsubscribe'],
  ['Pas intéressé, retirez-moi de vos listes.', 'unsubscribe'],
  ['No nos interesa, eliminen nuestro correo de sus listas.', 'unsubscribe'],
  ['Sem interesse, removam o meu contacto.', 'unsubscribe'],
  ['Non interessa, toglietemi dalla lista.', 'unsubscribe'],
  ['Geen interesse, haal mij van de lijst.', 'unsubscribe'],
  // auto weak absence and near misses
  [
    'Thanks for your email. I am travelling with limited connectivity and back on 3 December.',
    'out_of_office',
    AUTO,
  ],
  ['Danke für Ihre Nachricht. Ich bin ab dem 2.12. wieder da.', 'out_of_office', AUTO],
  ['Merci pour votre message. Je suis de retour le 4 décembre.', 'out_of_office', AUTO],
  ['Gracias por su mensaje. Vuelvo el lunes 7.', 'out_of_office', AUTO],
  ['Obrigado pela mensagem. Estarei de volta no dia 9.', 'out_of_office', AUTO],
  ['Grazie per il messaggio. Sono fuori ufficio, rientro il 3 dicembre.', 'out_of_office', AUTO],
  ['Bedankt voor uw bericht. Ik ben met verlof tot en met 6 december.', 'out_of_office', AUTO],
  [
    'Thank you for contacting us. This mailbox is monitored Monday to Friday; we will respond within 2 business days.',
    'neutral',
    AUTO,
  ],
  ['I was sick last week, sorry for the delay. Yes, send me the pricing.', 'interested'],
  ['Ik was ziek, vandaar de late reactie. Stuur me de prijzen maar.', 'interested'],
  // declines, other wordings
  ['Not for us, thanks.', 'not_interested'],
  ['We already built our own tool for this.', 'not_interested'],
  ['Das haben wir selbst gebaut, danke.', 'not_interested'],
  ['On a développé notre propre outil.', 'not_interested'],
  ['Tenemos una herramienta propia para eso.', 'not_interested'],
  ['Temos uma solução própria.', 'not_interested'],
  ['Abbiamo sviluppato uno strumento interno.', 'not_interested'],
  ['We hebben daar een eigen oplossing voor.', 'not_interested'],
  ['Vielleicht nächstes Jahr, dieses Jahr nicht mehr.', 'not_interested'],
  ['Peut-être l’an prochain, pas cette année.', 'not_interested'],
  ['Quizás el año que viene, este año no.', 'not_interested'],
  ['Talvez para o ano, este ano não.', 'not_interested'],
  ['Forse l’anno prossimo, quest’anno no.', 'not_interested'],
  ['Misschien volgend jaar, dit jaar niet.', 'not_interested'],
  ['If it works well for us we might expand. What does it cost?', 'interested'],
  ['Does it work well for small teams? Send me a quote.', 'interested'],
  // wrong person, other wordings
  ['Not me - I think you want my namesake at Acme Bank.', 'wrong_person'],
  ['I left Brightline two years ago.', 'wrong_person'],
  ['Ich bin seit März nicht mehr bei der Firma.', 'wrong_person'],
  ["Je ne suis plus chez Dupont depuis l'été.", 'wrong_person'],
  ['Hace un año que no trabajo en esa empresa.', 'wrong_person'],
  ['Já não trabalho nessa empresa desde junho.', 'wrong_person'],
  ["Non lavoro più in quell'azienda da marzo.", 'wrong_person'],
  ['Ik werk sinds april niet meer bij dat bedrijf.', 'wrong_person'],
  ['Das ist nicht mein Bereich, wenden Sie sich an einkauf@firma.example.', 'wrong_person'],
  ["Ce n'est pas mon domaine, écrivez plutôt à achats@societe.example.", 'wrong_person'],
  ['No es mi área; escriba a compras@empresa.example.', 'wrong_person'],
  ['Não é a minha área, fale com compras@empresa.example.', 'wrong_person'],
  ['Non è il mio ambito, scriva a acquisti@azienda.example.', 'wrong_person'],
  ['Dat is niet mijn afdeling, mail inkoop@bedrijf.example.', 'wrong_person'],
  ['You sent this to the wrong Invoice Team address, but fine: what does it cost?', 'interested'],
  // meeting, other wordings
  ['Happy to have a look. Grab any slot here: https://cal.example/meet/ana', 'meeting_request'],
  ['Ring me on Thursday after 3.', 'meeting_request'],
  ['Rufen Sie mich doch am Donnerstag nach 15 Uhr an.', 'meeting_request'],
  ['Appelez-moi jeudi après 15h.', 'meeting_request'],
  ['Llámame el jueves después de las 3.', 'meeting_request'],
  ['Liga-me na quinta depois das 15h.', 'meeting_request'],
  ['Chiamami giovedì dopo le 15.', 'meeting_request'],
  ['Bel me donderdag na 15 uur.', 'meeting_request'],
  ['Schauen Sie doch nächste Woche in unserem Büro in Graz vorbei.', 'meeting_request'],
  ['Venez nous voir à l’usine la semaine prochaine.', 'meeting_request'],
  ['Vente a vernos a la nave la semana que viene.', 'meeting_request'],
  ['Venha visitar-nos à fábrica na próxima semana.', 'meeting_request'],
  ['Venga a trovarci in stabilimento la prossima settimana.', 'meeting_request'],
  ['Kom volgende week eens langs in de fabriek.', 'meeting_request'],
  ['Is the 3rd good for a call?', 'meeting_request'],
  ['¿Le viene bien el 3 para una llamada?', 'meeting_request'],
  ['Il 3 va bene per una call?', 'meeting_request'],
  ['We have 25 people; el 14 % de ellos trabajan en remoto. Price?', 'interested'],
  ['Unser Umsatz ist am 14. gesunken, wir haben kein Budget.', 'not_interested'],
  // interest, other wordings
  ['Would you have a trial version we could test?', 'interested'],
  ['Gibt es eine Testversion?', 'interested'],
  ['Avez-vous une version d’essai ?', 'interested'],
  ['¿Tienen versión de prueba?', 'interested'],
  ['Têm uma versão de teste?', 'interested'],
  ['Avete una versione di prova?', 'interested'],
  ['Hebben jullie een proefversie?', 'interested'],
  ['Wat kost het per gebruiker?', 'interested'],
  ['Quanto custa por utilizador?', 'interested'],
  ['Quanto costa a utente?', 'interested'],
  ['Quel est le prix par utilisateur ?', 'interested'],
  ['Was kostet das pro Nutzer?', 'interested'],
  // neutral
  ['Who gave you my address?', 'neutral'],
  ['Wer hat Ihnen meine Adresse gegeben?', 'neutral'],
  ['Qui vous a donné mon adresse ?', 'neutral'],
  ['¿Quién le dio mi correo?', 'neutral'],
  ['Quem vos deu o meu e-mail?', 'neutral'],
  ['Chi vi ha dato il mio indirizzo?', 'neutral'],
  ['Wie heeft u mijn adres gegeven?', 'neutral'],
  ['Received, thanks.', 'neutral'],
  ['Ricevuto, grazie.', 'neutral'],
  ['Ontvangen, dank u.', 'neutral'],
  ['Where is your company based?', 'neutral'],
];

// The safety rule holds for the weaker absence wording: it counts only with automation
// headers, and never against a stop request, a decline or a bounce.
const PAUSING_SAFETY: Row[] = [
  ["I'm back on Monday. Please remove me from your list.", 'unsubscribe', AUTO],
  ['Ich bin derzeit krank. Bitte keine Mails mehr.', 'unsubscribe', AUTO],
  ['Je suis de retour le 4. Pas intéressé, merci.', 'not_interested', AUTO],
  ['Vuelvo el lunes 7. No nos interesa.', 'not_interested', AUTO],
  ['Estou doente. Não temos interesse.', 'not_interested', AUTO],
  ['No hemos podido entregar su mensaje. Vuelvo el lunes.\n554: usuario desconocido', 'bounce', AUTO],
  ["I'm back on Monday, let's talk then.", 'interested'],
  ['Ik ben ziek. Wat kost het?', 'interested'],
];

// A third round: formal letters with greeting, signature and the sales mail quoted
// below, one per class and language where the classes were weakest (27/35 read right
// before the rules they led to: a cost in the conditional, a discount asked, a renewed
// contract in French, "se encarga mi compañera", "daar gaat mijn collega over", an
// invitation to present the product, "Hätten Sie am 9. Zeit?").
const Q3 = {
  en: '\n\nOn Wed, 25 Nov 2026 at 10:00, Kim Hale <kim@vendor.example> wrote:\n> Would a short call next week make sense? If not, tell me and I will stop writing.\n',
  de: '\n\nAm Mi., 25. Nov. 2026 um 10:00 Uhr schrieb Kim Hale <kim@vendor.example>:\n> Hätten Sie Zeit für ein kurzes Gespräch? Falls nicht, melde ich mich nicht mehr.\n',
  fr: '\n\nLe mer. 25 nov. 2026 à 10:00, Kim Hale <kim@vendor.example> a écrit :\n> Un court appel la semaine prochaine ? Sinon dites-le-moi et je ne vous écrirai plus.\n',
  es: '\n\nEl mié, 25 nov 2026 a las 10:00, Kim Hale (<kim@vendor.example>) escribió:\n> ¿Le interesaría una llamada? Si no, dígamelo y no le escribo más.\n',
  pt: '\n\nEm qua., 25 de nov. de 2026 às 10:00, Kim Hale <kim@vendor.example> escreveu:\n> Teria interesse numa chamada? Se não, diga-me e não volto a escrever.\n',
  it: '\n\nIl giorno mer 25 nov 2026 alle ore 10:00 Kim Hale <kim@vendor.example> ha scritto:\n> Le interesserebbe una call? Altrimenti me lo dica e non le scrivo più.\n',
  nl: '\n\nOp wo 25 nov. 2026 om 10:00 schreef Kim Hale <kim@vendor.example>:\n> Heeft u interesse in een kort gesprek? Zo niet, laat het weten en ik mail niet meer.\n',
};
const FORMAL_ROUND: Row[] = [
  [
    `Dear Kim,\n\nThank you for your message. We would welcome a short presentation; could you propose two dates in the week of 7 December?\n\nKind regards,\nHelen Ward\nHead of Operations${Q3.en}`,
    'meeting_request',
  ],
  [
    `Dear Kim,\n\nThanks, but we renewed our contract with our current provider for another three years.\n\nRegards,\nTom${Q3.en}`,
    'not_interested',
  ],
  [
    `Hi Kim,\n\nI'm not the right contact for this; our COO, Rachel Diaz (rachel.diaz@firm.example), owns that budget.\n\nBest,\nMo${Q3.en}`,
    'wrong_person',
  ],
  [
    `Hello,\n\nPlease do not contact me again regarding this or any other offer.\n\nJ. Brown${Q3.en}`,
    'unsubscribe',
  ],
  [
    `Hi Kim,\n\nCould you tell me roughly what a licence for 60 staff would come to, and whether it connects to Xero?\n\nThanks,\nAmy${Q3.en}`,
    'interested',
  ],
  [
    `Sehr geehrter Herr Hale,\n\nvielen Dank für Ihre Nachricht. Gern können Sie uns Ihr Produkt vorstellen. Hätten Sie am 9. oder 10. Dezember vormittags Zeit?\n\nMit freundlichen Grüßen\nDr. Petra Lang${Q3.de}`,
    'meeting_request',
  ],
  [
    `Sehr geehrter Herr Hale,\n\nwir haben uns vor kurzem für eine andere Lösung entschieden.\n\nMit freundlichen Grüßen\nK. Berger${Q3.de}`,
    'not_interested',
  ],
  [
    `Guten Tag,\n\nfür dieses Thema ist bei uns Frau Sommer aus dem Einkauf zuständig: sommer@werk.example.\n\nFreundliche Grüße\nL. Maier${Q3.de}`,
    'wrong_person',
  ],
  [
    `Guten Tag,\n\nich bitte Sie, meine Kontaktdaten aus Ihrem System zu entfernen und mich nicht weiter anzuschreiben.\n\nGrüße\nR. Huber${Q3.de}`,
    'unsubscribe',
  ],
  [
    `Hallo Herr Hale,\n\nwas würde das für 3 Filialen mit je 15 Mitarbeitenden kosten?\n\nBeste Grüße\nJana${Q3.de}`,
    'interested',
  ],
  [
    `Bonjour Monsieur Hale,\n\nMerci pour votre message. Je vous propose un échange téléphonique le mardi 8 décembre à 11h.\n\nCordialement,\nSophie Renard${Q3.fr}`,
    'meeting_request',
  ],
  [
    `Bonjour,\n\nNous venons de renouveler notre contrat avec notre prestataire actuel.\n\nCordialement,\nM. Girard${Q3.fr}`,
    'not_interested',
  ],
  [
    `Bonjour,\n\nJe ne m'occupe pas de ce sujet. Merci de contacter notre DSI, M. Caron : caron@groupe.example\n\nBien à vous,\nA. Petit${Q3.fr}`,
    'wrong_person',
  ],
  [
    `Bonjour,\n\nJe vous demande de supprimer mes coordonnées de vos fichiers.\n\nCordialement\nC. Roux${Q3.fr}`,
    'unsubscribe',
  ],
  [
    `Bonjour Kim,\n\nPourriez-vous m'indiquer le coût pour une équipe de 25 personnes ?\n\nMerci,\nLéa${Q3.fr}`,
    'interested',
  ],
  [
    `Estimado Kim:\n\nGracias por su correo. Podríamos vernos por videollamada el próximo jueves a las 12:00.\n\nAtentamente,\nLucía Navarro${Q3.es}`,
    'meeting_request',
  ],
  [
    `Hola Kim,\n\nacabamos de firmar con otra empresa, así que no vamos a seguir adelante.\n\nSaludos,\nJavier${Q3.es}`,
    'not_interested',
  ],
  [
    `Buenas,\n\nde esto se encarga mi compañera Elena Ruiz (eruiz@grupo.example), escríbale a ella.\n\nUn saludo,\nPablo${Q3.es}`,
    'wrong_person',
  ],
  [
    `Buenos días,\n\nles solicito que supriman mis datos de su base de datos.\n\nAtentamente,\nM. Ortega${Q3.es}`,
    'unsubscribe',
  ],
  [
    `Hola Kim,\n\n¿cuánto saldría para 40 usuarios? ¿Tienen descuento anual?\n\nGracias,\nIrene${Q3.es}`,
    'interested',
  ],
  [
    `Caro Kim,\n\nobrigado pelo contacto. Podemos falar por telefone na terça-feira, dia 8, às 15h?\n\nCumprimentos,\nJoão Matos${Q3.pt}`,
    'meeting_request',
  ],
  [
    `Olá Kim,\n\nacabámos de assinar contrato com outro fornecedor, por isso não avançaremos.\n\nCumprimentos,\nSara${Q3.pt}`,
    'not_interested',
  ],
  [
    `Olá,\n\nquem trata disso é o meu colega Nuno Reis (nuno.reis@empresa.example).\n\nAbraço,\nTiago${Q3.pt}`,
    'wrong_person',
  ],
  [
    `Bom dia,\n\npeço que eliminem os meus dados da vossa base de dados.\n\nCumprimentos,\nA. Pires${Q3.pt}`,
    'unsubscribe',
  ],
  [
    `Olá Kim,\n\nquanto ficaria para 30 utilizadores? Há desconto anual?\n\nObrigada,\nInês${Q3.pt}`,
    'interested',
  ],
  [
    `Gentile Kim,\n\nla ringrazio. Potremmo sentirci martedì 8 dicembre alle 11?\n\nCordiali saluti,\nGiulia Conti${Q3.it}`,
    'meeting_request',
  ],
  [
    `Buongiorno,\n\nabbiamo appena rinnovato il contratto con il nostro fornitore attuale.\n\nCordiali saluti,\nF. Marino${Q3.it}`,
    'not_interested',
  ],
  [
    `Buongiorno,\n\nse ne occupa il collega Luca Greco (l.greco@azienda.example), le suggerisco di scrivere a lui.\n\nSaluti,\nAnna${Q3.it}`,
    'wrong_person',
  ],
  [
    `Buongiorno,\n\nvi chiedo di cancellare i miei dati dai vostri archivi.\n\nDistinti saluti,\nR. Colombo${Q3.it}`,
    'unsubscribe',
  ],
  [
    `Ciao Kim,\n\nquanto verrebbe per 20 utenti? Fate sconti annuali?\n\nGrazie,\nMarta${Q3.it}`,
    'interested',
  ],
  [
    `Beste Kim,\n\nDank voor uw bericht. Kunnen we dinsdag 8 december om 11 uur even bellen?\n\nMet vriendelijke groet,\nEva Jansen${Q3.nl}`,
    'meeting_request',
  ],
  [
    `Hoi Kim,\n\nWe hebben net ons contract bij onze huidige leverancier verlengd.\n\nGroet,\nBram${Q3.nl}`,
    'not_interested',
  ],
  [
    `Hallo,\n\nDaar gaat mijn collega Lotte Smit over (lotte.smit@bedrijf.example), mail haar maar.\n\nGroeten,\nDaan${Q3.nl}`,
    'wrong_person',
  ],
  [
    `Goedendag,\n\nIk verzoek u mijn gegevens uit uw bestand te verwijderen.\n\nMet vriendelijke groet,\nP. Visser${Q3.nl}`,
    'unsubscribe',
  ],
  [
    `Hoi Kim,\n\nWat zou het kosten voor 35 gebruikers? Is er jaarkorting?\n\nBedankt,\nSanne${Q3.nl}`,
    'interested',
  ],
];

// A fourth round: chat style, typos, missing accents and regional variants (de-CH
// "Offerte", es-MX "cotización", pt-BR "me descadastra", nl-BE "gelieve", "ge"): 44/51
// read right before the rules they led to.
const CHAT_ROUND: Row[] = [
  // en chat / typos
  ['pls take me off ur list', 'unsubscribe'],
  ['not intrested thx', 'not_interested'],
  ['wrong guy mate, try sarah@shop.example', 'wrong_person'],
  ['ya send the pricing over', 'interested'],
  ['can u do thurs 2pm?', 'meeting_request'],
  ['who is this?', 'neutral'],
  // de-AT / de-CH / informal, no umlauts
  ['Bitte streichen Sie mich aus dem Verteiler, merci.', 'unsubscribe'],
  ['Kein Bedarf, wir sind gut versorgt.', 'not_interested'],
  ['Da sind Sie bei mir falsch, fragen Sie bei der IT nach.', 'wrong_person'],
  ['Tönt interessant, schicken Sie mir eine Offerte.', 'interested'],
  ['Koennen wir naechsten Dienstag telefonieren?', 'meeting_request'],
  ['Grüezi, woher haben Sie meine Adresse?', 'neutral'],
  // fr-BE/CH, informal
  ['Désinscrivez-moi svp', 'unsubscribe'],
  ['Non merci, ça ne nous intéresse pas pour le moment.', 'not_interested'],
  ["C'est pas moi qu'il faut voir, c'est Julie à la compta.", 'wrong_person'],
  ['Ok pour en savoir plus, envoyez la doc.', 'interested'],
  ['On se fait un call jeudi ?', 'meeting_request'],
  ["C'est quoi votre boîte exactement ?", 'neutral'],
  // es LatAm
  ['Porfa sáquenme de su lista.', 'unsubscribe'],
  ['No gracias, ahorita no nos interesa.', 'not_interested'],
  ['Yo no veo eso, escríbele a compras@empresa.example', 'wrong_person'],
  ['Me late, mándame la cotización.', 'interested'],
  ['¿Nos echamos una llamada el jueves?', 'meeting_request'],
  ['¿Quién les pasó mi correo?', 'neutral'],
  // pt-BR / pt-PT
  ['Me descadastra por favor', 'unsubscribe'],
  ['Valeu, mas não temos interesse no momento.', 'not_interested'],
  ['Não sou eu quem cuida disso, fala com a Carla do financeiro.', 'wrong_person'],
  ['Bacana, me manda o orçamento.', 'interested'],
  ['Bora marcar uma call quinta?', 'meeting_request'],
  ['Quem te passou meu contato?', 'neutral'],
  ['Por favor deixem de me enviar emails.', 'unsubscribe'],
  ['Obrigado, mas não estamos interessados de momento.', 'not_interested'],
  // it informal
  ['Toglietemi dalla lista per favore', 'unsubscribe'],
  ['No grazie, non ci interessa.', 'not_interested'],
  ['Non sono io la persona giusta, senti Paolo in amministrazione.', 'wrong_person'],
  ['Interessante, mandami il listino.', 'interested'],
  ['Ci sentiamo giovedì alle 15?', 'meeting_request'],
  ['Chi vi ha dato il mio contatto?', 'neutral'],
  // nl-BE / informal
  ['Gelieve mij uit te schrijven.', 'unsubscribe'],
  ['Nee dank je, geen interesse.', 'not_interested'],
  ['Daarvoor moet ge niet bij mij zijn, wel bij Tom van aankoop.', 'wrong_person'],
  ['Stuur gerust een offerte door.', 'interested'],
  ['Kunnen we donderdag even bellen?', 'meeting_request'],
  ['Vanwaar hebt u mijn gegevens?', 'neutral'],
  // ooo short with AUTO
  ['Out sick today, back tomorrow.', 'out_of_office', AUTO],
  ['Bin heute krank, ab morgen wieder da.', 'out_of_office', AUTO],
  ['En congé jusqu’au 3.', 'out_of_office', AUTO],
  ['De vacaciones hasta el 5.', 'out_of_office', AUTO],
  ['De férias até dia 5.', 'out_of_office', AUTO],
  ['In ferie fino al 5.', 'out_of_office', AUTO],
  ['Met vakantie tot de 5e.', 'out_of_office', AUTO],
];

// A fifth round: replies of several sentences where classes meet (a decline with a
// colleague's address, interest later, "not now, try again in Q3", a bare forward, an
// automatic notice that the person left, a human about to go on holiday who asks for it,
// "not interested and never write again", "I replied STOP and still get these"): 35/53
// read right before the rules they led to.
const MIXED_ROUND: Row[] = [
  ['Not for me, but my colleague in procurement might care: li.wei@corp.example', 'wrong_person'],
  ['Für mich nichts, aber vielleicht für meinen Kollegen aus dem Einkauf: jan@werk.example', 'wrong_person'],
  ['Pas pour moi, mais peut-être pour ma collègue des achats : eve@soc.example', 'wrong_person'],
  ['A mí no me toca, pero quizá a mi compañera de compras: ana@emp.example', 'wrong_person'],
  ['Não é comigo, mas talvez com o meu colega das compras: rui@emp.example', 'wrong_person'],
  ['Non fa per me, ma forse per il collega degli acquisti: ugo@az.example', 'wrong_person'],
  ['Niet voor mij, maar misschien voor mijn collega van inkoop: bas@bv.example', 'wrong_person'],
  ['Yes, but only from April with the new budget. Send me the prices now anyway.', 'interested'],
  ['Ja, aber erst ab April mit dem neuen Budget. Schicken Sie mir trotzdem schon die Preise.', 'interested'],
  ["Oui, mais seulement à partir d'avril. Envoyez-moi quand même les tarifs.", 'interested'],
  ['Sí, pero a partir de abril con el nuevo presupuesto. Mándeme ya los precios.', 'interested'],
  ['Sim, mas só a partir de abril. Enviem-me já os preços.', 'interested'],
  ['Sì, ma solo da aprile col nuovo budget. Mi mandi intanto i prezzi.', 'interested'],
  ['Ja, maar pas vanaf april. Stuur me nu alvast de prijzen.', 'interested'],
  ['Not now. Try me again in Q3.', 'not_interested'],
  ['Jetzt nicht. Melden Sie sich im dritten Quartal wieder.', 'not_interested'],
  ['Pas maintenant, recontactez-moi au troisième trimestre.', 'not_interested'],
  ['Ahora no, vuelva a escribirme en septiembre.', 'not_interested'],
  ['Agora não, volte a contactar-me em setembro.', 'not_interested'],
  ['Adesso no, mi ricontatti a settembre.', 'not_interested'],
  ['Nu niet, neem in september weer contact op.', 'not_interested'],
  ['I have forwarded this to my colleagues.', 'neutral'],
  ['Ich habe das an die Kollegen weitergeleitet.', 'neutral'],
  ["J'ai transmis à mes collègues.", 'neutral'],
  ['Lo he reenviado a mis compañeros.', 'neutral'],
  ['Reencaminhei aos meus colegas.', 'neutral'],
  ['Ho inoltrato ai colleghi.', 'neutral'],
  ['Ik heb het doorgestuurd naar mijn collega’s.', 'neutral'],
  ['Is this an automated email?', 'neutral'],
  ['Ist das eine automatische Mail?', 'neutral'],
  ['¿Es un correo automático?', 'neutral'],
  ['È una mail automatica?', 'neutral'],
  ['Is dit een automatische mail?', 'neutral'],
  [
    'Anna Berg no longer works at Northwind. Your message will not be forwarded. Please contact info@northwind.example.',
    'wrong_person',
    AUTO,
  ],
  [
    'Frau Berg ist nicht mehr im Unternehmen tätig. Bitte wenden Sie sich an info@nordwind.example.',
    'wrong_person',
    AUTO,
  ],
  [
    "Mme Morel ne fait plus partie de l'entreprise. Merci d'écrire à contact@societe.example.",
    'wrong_person',
    AUTO,
  ],
  ['Este buzón ya no está activo. Escriba a info@empresa.example.', 'wrong_person', AUTO],
  ['Esta caixa de correio já não é lida. Contacte geral@empresa.example.', 'wrong_person', AUTO],
  ['Questa casella non è più attiva. Scriva a info@azienda.example.', 'wrong_person', AUTO],
  ['Deze mailbox wordt niet meer gelezen. Mail naar info@bedrijf.example.', 'wrong_person', AUTO],
  ["I'm on holiday from Friday for two weeks - send it over and I'll read it when I'm back.", 'interested'],
  ['Ich bin ab Freitag zwei Wochen im Urlaub, schicken Sie es gern, ich lese es danach.', 'interested'],
  ['Not interested and do not email me again.', 'unsubscribe'],
  ['Kein Interesse, und schreiben Sie mir nie wieder.', 'unsubscribe'],
  ['No me interesa y no me vuelva a escribir.', 'unsubscribe'],
  ['Non mi interessa e non scrivetemi più.', 'unsubscribe'],
  ['Sem interesse e não me voltem a escrever.', 'unsubscribe'],
  ["I replied STOP last week and I'm still getting these.", 'unsubscribe'],
  ['Ich habe schon STOP geantwortet und bekomme trotzdem noch Mails.', 'unsubscribe'],
  ["J'ai déjà répondu STOP et je reçois encore vos mails.", 'unsubscribe'],
  ['Ya respondí BAJA y sigo recibiendo correos.', 'unsubscribe'],
  ['Ho già risposto STOP e continuo a ricevere le vostre mail.', 'unsubscribe'],
  ['Ik heb al STOP geantwoord en krijg nog steeds mails.', 'unsubscribe'],
  ["Please don't send it again.", 'unsubscribe'],
  ['Ahora no, pero no me vuelva a escribir.', 'unsubscribe'],
  // Near misses the fifth round's rules first read wrong (older sets' labels).
  ['Ik stuur het door naar een collega.', 'neutral'],
  ['Recontactez-moi en septembre, nous verrons à ce moment-là.', 'neutral'],
];

const ALL: [string, Row[]][] = [
  ['several sentences where classes meet', MIXED_ROUND],
  ['chat style, typos and regional variants', CHAT_ROUND],
  ['formal letters with greeting, signature and quote', FORMAL_ROUND],
  ['pausing needs an automatic notice and no stop', PAUSING_SAFETY],
  ['a second round of wordings and near misses', SECOND_ROUND],
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
