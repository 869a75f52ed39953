import { describe, expect, it } from 'vitest';
// These cases pin the rules' own readings (classifyReplyText adds the learned model's second
// opinion, which reads some of these near-misses differently: see reply-model.test.ts).
import { classifyReplyTextByRules as classifyReplyText } from '../../src/classify/classify-reply-text.js';

// Kinds of reply the rules missed on sets already spent (holdout-5's misses, read after
// its second measurement) and in issue 18, each written anew in the seven languages from
// the class definitions (test/fixtures/replies-multilingual/README.md), not copied from
// any set. One row a wording: [text, class, subject?, headers?].
type Row = [string, string, string?, Record<string, string>?];

const AUTO = { 'Auto-Submitted': 'auto-replied' };

const OFFICE_CLOSED: Row[] = [
  [
    'Our office will be closed between Christmas and New Year. We will answer your email when we reopen on 4 January.',
    'out_of_office',
    'Auto: Re: hello',
    AUTO,
  ],
  [
    'The whole team is off for the summer break from 1 to 15 August; replies resume on the 16th.',
    'out_of_office',
    'Re: hello',
    { Precedence: 'bulk' },
  ],
  [
    'Unsere Praxis ist vom 27.12. bis 02.01. geschlossen. Ab dem 3. Januar sind wir wieder erreichbar.',
    'out_of_office',
    'Abwesend: Re: Hallo',
    { 'X-Autoreply': 'yes' },
  ],
  [
    'Wegen Betriebsferien bleibt unser Unternehmen bis einschließlich 9. August geschlossen.',
    'out_of_office',
    'Re: Hallo',
    AUTO,
  ],
  [
    'Nos bureaux sont fermés du 23 décembre au 2 janvier. Nous traiterons votre demande dès la réouverture.',
    'out_of_office',
    'Réponse automatique : Re: Bonjour',
    AUTO,
  ],
  [
    "Le cabinet sera fermé pour congés annuels jusqu'au 21 août inclus.",
    'out_of_office',
    'Re: Bonjour',
    { Precedence: 'bulk' },
  ],
  [
    'La empresa permanecerá cerrada por vacaciones del 1 al 31 de agosto. Responderemos a su correo a la vuelta.',
    'out_of_office',
    'Re: Hola',
    AUTO,
  ],
  [
    'Nuestra oficina estará cerrada por festivo local el próximo lunes.',
    'out_of_office',
    'Respuesta automática: Re: Hola',
    AUTO,
  ],
  ['A nossa loja está fechada para férias coletivas até 10 de janeiro.', 'out_of_office', 'Re: Olá', AUTO],
  [
    'O escritório estará encerrado entre 24/12 e 02/01. Responderemos após o regresso.',
    'out_of_office',
    'Resposta automática: Re: Olá',
    { Precedence: 'bulk' },
  ],
  [
    "L'ufficio rimarrà chiuso per la pausa estiva dal 10 al 24 agosto.",
    'out_of_office',
    'Re: Buongiorno',
    AUTO,
  ],
  [
    'Siamo chiusi per ferie fino al 6 gennaio. Risponderemo al rientro.',
    'out_of_office',
    'Risposta automatica: Re: Buongiorno',
    AUTO,
  ],
  [
    'Ons kantoor is gesloten van 24 december tot en met 1 januari. Daarna reageren wij zo snel mogelijk.',
    'out_of_office',
    'Automatisch antwoord: Re: Hallo',
    AUTO,
  ],
  [
    'In verband met de bouwvak zijn wij gesloten tot 18 augustus.',
    'out_of_office',
    'Re: Hallo',
    { Precedence: 'bulk' },
  ],
  [
    'Die Kanzlei ist vom 22.12.2026 bis einschließlich 06.01.2027 geschlossen.',
    'out_of_office',
    'Re: Hallo',
    AUTO,
  ],
  // Questions about someone else's office are not notices.
  ['Is your office closed over Christmas?', 'neutral'],
  ['Ist Ihr Lager zwischen den Jahren geschlossen?', 'neutral'],
];

// An automatic notice that the person has gone: waiting would wait for nobody.
const GONE_NOTICE: Row[] = [
  [
    'This mailbox has been deactivated. Anna Ross is no longer with Brightwell. Please write to office@brightwell.example.',
    'wrong_person',
    'Automatic reply: Re: hello',
    AUTO,
  ],
  [
    'Dieses Postfach wird nicht mehr gelesen. Herr Kühn hat das Unternehmen verlassen; bitte wenden Sie sich an info@kuehn.example.',
    'wrong_person',
    'Automatische Antwort: Re: Hallo',
    AUTO,
  ],
  [
    "Marc Vidal a quitté l'entreprise. Cette boîte mail n'est plus consultée ; écrivez à contact@vidal.example.",
    'wrong_person',
    'Réponse automatique : Re: Bonjour',
    AUTO,
  ],
  [
    'Esta cuenta de correo ya no está activa. Lucía Romero ya no forma parte de la empresa.',
    'wrong_person',
    'Respuesta automática: Re: Hola',
    AUTO,
  ],
  [
    'Este e-mail foi desativado. O colaborador Paulo Reis não faz mais parte da nossa equipe.',
    'wrong_person',
    'Resposta automática: Re: Olá',
    AUTO,
  ],
  [
    'Questa casella di posta non è più attiva: Sara Greco non fa più parte dello studio.',
    'wrong_person',
    'Risposta automatica: Re: Buongiorno',
    AUTO,
  ],
  [
    'Dit e-mailadres is niet meer in gebruik. Mark de Boer is uit dienst getreden.',
    'wrong_person',
    'Automatisch antwoord: Re: Hallo',
    AUTO,
  ],
];

const LEFT: Row[] = [
  ['I left Brightwell back in the spring, no idea who took over from me.', 'wrong_person'],
  ['Herr Kühn ist seit dem 1. Oktober nicht mehr bei uns beschäftigt.', 'wrong_person'],
  ["J'ai quitté Vidal & Fils en juin, je ne peux pas vous aider.", 'wrong_person'],
  ['Dejé Romero Hermanos hace tres meses.', 'wrong_person'],
  ['Saí da Reis Lda. em julho, já não trato disso.', 'wrong_person'],
  ['Ho lasciato lo studio Greco a settembre.', 'wrong_person'],
  ['Mark werkt sinds juni niet meer bij De Boer Bouw.', 'wrong_person'],
];

const NO_SAY: Row[] = [
  ["I'm just the intern here, I have no say in purchases.", 'wrong_person'],
  ['Ich bin hier nur Azubi und habe darauf keinen Einfluss.', 'wrong_person'],
  ["Je ne suis qu'alternant, ce n'est pas moi qui décide.", 'wrong_person'],
  ['Soy becario, no tengo poder de decisión sobre esto.', 'wrong_person'],
  ['Sou só estagiária, não tenho autonomia para decidir isso.', 'wrong_person'],
  ['Sono solo uno stagista, non ho voce in capitolo.', 'wrong_person'],
  ['Ik ben maar stagiaire, ik ga daar niet over.', 'wrong_person'],
];

// "Forwarded to a colleague" passes the mail on; it says nothing about who is right.
const WRONG_ADDRESS: Row[] = [
  ["You've written to the wrong inbox, this one is only for invoices.", 'wrong_person'],
  ['Da sind Sie bei mir an der falschen Adresse.', 'wrong_person'],
  ["Vous n'êtes pas à la bonne adresse, je suis au service client.", 'wrong_person'],
  ['Se ha equivocado de persona, yo llevo compras.', 'wrong_person'],
  ['Avete sbagliato persona, io seguo la logistica.', 'wrong_person'],
  ['U bent bij ons aan het verkeerde adres.', 'wrong_person'],
  ["I'm in legal, not procurement.", 'wrong_person'],
];

const FORWARDED: Row[] = [
  ["I've passed your email on to my colleague.", 'neutral'],
  ['Ich habe Ihre Mail an die Kollegin weitergeleitet.', 'neutral'],
  ["J'ai fait suivre votre message à l'équipe.", 'neutral'],
  ['He reenviado tu correo al equipo.', 'neutral'],
  ['Encaminhei o seu e-mail para a equipe.', 'neutral'],
  ['Ho girato la sua mail al team.', 'neutral'],
  ['Ik heb je mail doorgezet naar het team.', 'neutral'],
  // Naming the one in charge makes it wrong_person again.
  ['I forwarded your email to my colleague who handles purchasing.', 'wrong_person'],
  ['Ich habe Ihre Mail an den zuständigen Kollegen weitergeleitet.', 'wrong_person'],
];

const DECLINE: Row[] = [
  ['We signed a two-year contract with a different payroll provider last month.', 'not_interested'],
  ['All spending is frozen until next spring, so nothing will happen here.', 'not_interested'],
  [
    'Wir haben letzte Woche einen Rahmenvertrag mit einem anderen Dienstleister unterschrieben.',
    'not_interested',
  ],
  ['Nein danke, brauchen wir nicht.', 'not_interested'],
  ['Nous avons déjà signé avec un de vos concurrents.', 'not_interested'],
  ['Non merci, sans façon.', 'not_interested'],
  ['Cerramos con la competencia la semana pasada.', 'not_interested'],
  ['No, gracias, no lo necesitamos.', 'not_interested'],
  ['Valeu, mas não precisamos.', 'not_interested'],
  ['Agora não dá, o orçamento está congelado.', 'not_interested'],
  ['Abbiamo già firmato con un vostro concorrente.', 'not_interested'],
  ['No grazie, non ci serve.', 'not_interested'],
  ['Nee dank je, hebben we niet nodig.', 'not_interested'],
  ['We zijn al met een concurrent in zee gegaan.', 'not_interested'],
  ['Não, obrigado.', 'not_interested'],
  ['Nee dank u, niet nodig.', 'not_interested'],
];

const MEETING: Row[] = [
  ["Let's jump on a Zoom next week, Tuesday or Thursday?", 'meeting_request'],
  ['Lassen Sie uns kurz per Zoom sprechen, Donnerstag passt.', 'meeting_request'],
  ['On se fait un Teams mardi ?', 'meeting_request'],
  ['Reserva una llamada aquí cuando te venga bien: https://cal.example/ana', 'meeting_request'],
  ['Marque uma call comigo por aqui: https://cal.example/ana', 'meeting_request'],
  ['Prenoti pure una demo qui: https://cal.example/ana', 'meeting_request'],
  ['Gerne eine Demo bei uns vor Ort. Wann hätten Sie Zeit?', 'meeting_request'],
  ['Plan gerust een demo in via deze link: https://cal.example/ana', 'meeting_request'],
  ['Può fissare una call direttamente dal mio calendario.', 'meeting_request'],
  ['Interessant. Wanneer hebben jullie tijd?', 'meeting_request'],
  ['Quand seriez-vous disponibles ?', 'meeting_request'],
];

const UNSUBSCRIBE: Row[] = [
  ['Can you take me off your list?', 'unsubscribe'],
  ['Könnt ihr mich aus dem Verteiler nehmen?', 'unsubscribe'],
  ['Pouvez-vous me retirer de votre liste ?', 'unsubscribe'],
  ['¿Me podéis quitar de vuestra lista?', 'unsubscribe'],
  ['SAIR', 'unsubscribe'],
  ['Remover', 'unsubscribe'],
  ['Mi togliete dalla lista?', 'unsubscribe'],
  ['Kunnen jullie mij van de lijst halen?', 'unsubscribe'],
  ['Wil je me uit je bestand halen?', 'unsubscribe'],
];

const INTERESTED: Row[] = [
  ['Graag een offerte voor twee locaties.', 'interested'],
  ['Stuur maar wat informatie op.', 'interested'],
  ['Manda-me mais detalhes, por favor.', 'interested'],
  ['Mande mais informações sobre os planos.', 'interested'],
  ['Mándame más detalles, porfa.', 'interested'],
  ['Mi mandi qualche dettaglio in più.', 'interested'],
];

// Second round: wordings written for each class in each language from the class
// definitions (147, of which these 37 were read wrong before the rules that follow them).
const SECOND_ROUND: Row[] = [
  ["I'd like to be unsubscribed from these emails.", 'unsubscribe'],
  ["You'd need to speak to our IT director about that.", 'wrong_person'],
  ['Happy to chat - how does Monday at 10 look?', 'meeting_request'],
  ["Let's find 20 minutes next week.", 'meeting_request'],
  ['Tragen Sie mich bitte aus.', 'unsubscribe'],
  ['Können Sie mir ein Angebot für 50 Lizenzen machen?', 'interested'],
  ['Gibt es eine kostenlose Testphase?', 'interested'],
  ['Lassen Sie uns nächste Woche 20 Minuten finden.', 'meeting_request'],
  ['On va passer notre tour.', 'not_interested'],
  ['Ça ne correspond pas à nos besoins actuellement.', 'not_interested'],
  ['Proposez-vous un essai gratuit ?', 'interested'],
  ['Avec plaisir, lundi 10h vous irait ?', 'meeting_request'],
  ['Trouvons 20 minutes la semaine prochaine.', 'meeting_request'],
  ['Ahora mismo no encaja con lo que necesitamos.', 'not_interested'],
  ['Yo no llevo la selección de proveedores, eso es cosa de compras.', 'wrong_person'],
  ['Busquemos 20 minutos la semana que viene.', 'meeting_request'],
  ['Por favor, não me contactem novamente.', 'unsubscribe'],
  ['Teria de falar com o nosso diretor de TI.', 'wrong_person'],
  ['Vocês têm período de teste gratuito?', 'interested'],
  ['Com prazer, segunda às 10h pode ser?', 'meeting_request'],
  ['Vamos encontrar 20 minutos na próxima semana.', 'meeting_request'],
  ['Estou numa formação e regresso na quinta-feira.', 'out_of_office', 'Re: hello', AUTO],
  ['Passo, grazie.', 'not_interested'],
  ['Dovrebbe parlare con il nostro responsabile IT.', 'wrong_person'],
  ['Mi può mandare una scheda e dei prezzi indicativi?', 'interested'],
  ['Volentieri, lunedì alle 10 le andrebbe bene?', 'meeting_request'],
  ['Troviamo 20 minuti la settimana prossima.', 'meeting_request'],
  ['Grazie per la sua email. Sono in vacanza, rientro lunedì.', 'out_of_office', 'Re: hello', AUTO],
  ['Neem alstublieft geen contact meer met mij op.', 'unsubscribe'],
  ['We slaan deze over, bedankt.', 'not_interested'],
  ['Past op dit moment niet bij ons.', 'not_interested'],
  ['Ik ga niet over de keuze van leveranciers, dat doet inkoop.', 'wrong_person'],
  ['Ik heb een andere functie en houd me hier niet meer mee bezig.', 'wrong_person'],
  ['Graag, maandag om 10 uur?', 'meeting_request'],
  ['Laten we volgende week 20 minuten prikken.', 'meeting_request'],
  ['Ik ben op reis tot 12 januari en lees mijn mail slechts af en toe.', 'out_of_office', 'Re: hello', AUTO],
  ['Ik volg een training en ben donderdag weer op kantoor.', 'out_of_office', 'Re: hello', AUTO],
];

// Third round: one formal letter per class and language, with greeting and signature
// (49, of which these were read wrong before the rules that follow them).
const FORMAL_ROUND: Row[] = [
  [
    'Dear Mr Hughes,\n\nI have received several of your messages now. I would be grateful if you could ensure that I receive no further correspondence from your company.\n\nKind regards,\nMargaret Ellis',
    'unsubscribe',
  ],
  [
    'Sehr geehrter Herr Vogel,\n\nich habe nun mehrfach E-Mails von Ihnen erhalten. Ich bitte Sie, von weiteren Zusendungen abzusehen.\n\nMit freundlichen Grüßen\nMargarete Ebert',
    'unsubscribe',
  ],
  [
    'Hallo Herr Vogel,\n\ndas klingt für ein Projekt, das wir gerade planen, relevant. Könnten Sie mir die API-Dokumentation und Ihre Sicherheitszertifikate zukommen lassen?\n\nDanke und Gruß\nOliver',
    'interested',
  ],
  [
    "Monsieur,\n\nJ'ai reçu plusieurs de vos messages. Je vous saurais gré de ne plus m'adresser de correspondance à l'avenir.\n\nCordialement,\nMarguerite Ellis",
    'unsubscribe',
  ],
  [
    "Bonjour Daniel,\n\nMerci d'avoir pensé à nous. Après discussion en interne, nous avons décidé de ne pas donner suite pour le moment.\n\nBien à vous,\nRaphaël",
    'not_interested',
  ],
  [
    "Bonjour Daniel,\n\nMerci pour votre message. Depuis la réorganisation, je ne participe plus à ces décisions ; les achats relèvent désormais de l'équipe des opérations.\n\nBonne journée,\nCatherine",
    'wrong_person',
  ],
  [
    "Bonjour Daniel,\n\nCela pourrait correspondre à un projet que nous préparons pour le prochain trimestre. Pourriez-vous me transmettre la documentation de l'API et vos certifications de sécurité ?\n\nMerci,\nOlivier",
    'interested',
  ],
  [
    'Estimado Sr. Gómez:\n\nHe recibido ya varios mensajes suyos. Le agradecería que se abstuviera de enviarme más comunicaciones.\n\nAtentamente,\nMargarita Ortega',
    'unsubscribe',
  ],
  [
    'Hola Daniel:\n\nGracias por pensar en nosotros. Lo hemos comentado con el equipo y hemos decidido no seguir adelante por ahora.\n\nUn saludo,\nRafael',
    'not_interested',
  ],
  [
    'Hola Daniel:\n\nGracias por tu mensaje. Desde la reorganización ya no participo en estas decisiones; las compras ahora dependen del equipo de operaciones.\n\nSaludos,\nCatalina',
    'wrong_person',
  ],
  [
    'Hola Daniel:\n\nGracias por escribir. Estoy abierto a una conversación breve. Tengo disponibilidad el miércoles a partir de las 14:00, si te va bien.\n\nUn saludo,\nÓscar',
    'meeting_request',
  ],
  [
    'Exmo. Sr. Gomes,\n\nJá recebi várias mensagens suas. Agradeço que deixe de me enviar qualquer comunicação.\n\nCom os melhores cumprimentos,\nMargarida Ortiz',
    'unsubscribe',
  ],
  [
    'Olá Daniel,\n\nObrigado por se lembrar de nós. Depois de falarmos internamente, decidimos não avançar por agora.\n\nCumprimentos,\nRafael',
    'not_interested',
  ],
  [
    'Olá Daniel,\n\nObrigada pela mensagem. Desde a reestruturação já não participo nestas decisões; as compras passaram para a equipa de operações.\n\nAbraço,\nCatarina',
    'wrong_person',
  ],
  [
    'Olá Daniel,\n\nIsto pode encaixar num projeto que estamos a preparar para o próximo trimestre. Consegue enviar-me a documentação da API e as vossas certificações de segurança?\n\nObrigado,\nÓscar',
    'interested',
  ],
  [
    'Obrigada pela sua mensagem.\n\nNeste momento não me encontro no escritório e não terei acesso ao e-mail até terça-feira, 19 de janeiro. Responderei quando regressar.\n\nCumprimentos,\nCatarina Mota',
    'out_of_office',
    'Re: hello',
    AUTO,
  ],
  [
    'Gentile Dott. Gallo,\n\nho ricevuto diversi suoi messaggi. Le sarei grata se evitasse di inviarmi ulteriori comunicazioni.\n\nCordiali saluti,\nMargherita Orsi',
    'unsubscribe',
  ],
  [
    'Buongiorno Daniele,\n\ngrazie per aver pensato a noi. Ne abbiamo parlato internamente e abbiamo deciso di non procedere per ora.\n\nUn saluto,\nRaffaele',
    'not_interested',
  ],
  [
    'Ciao Daniele,\n\ngrazie del messaggio. Dopo la riorganizzazione non partecipo più a queste decisioni; gli acquisti ora fanno capo al team operations.\n\nA presto,\nCaterina',
    'wrong_person',
  ],
  [
    'Buongiorno Daniele,\n\npotrebbe essere utile per un progetto che stiamo impostando per il prossimo trimestre. Può inviarmi la documentazione delle API e le vostre certificazioni di sicurezza?\n\nGrazie,\nOscar',
    'interested',
  ],
  [
    'Hallo Daniel,\n\nBedankt dat je aan ons dacht. We hebben het intern besproken en besloten er voorlopig niet mee verder te gaan.\n\nGroet,\nRuben',
    'not_interested',
  ],
  [
    'Hoi Daniel,\n\nDit kan passen bij een project dat we voor volgend kwartaal voorbereiden. Kun je me de API-documentatie en jullie beveiligingscertificeringen sturen?\n\nBedankt,\nOscar',
    'interested',
  ],
  [
    'Hoi Daniel,\n\nBedankt voor je bericht. Ik sta open voor een kort gesprek. Woensdag na 14.00 uur kan ik, als dat jou uitkomt.\n\nGroet,\nOscar',
    'meeting_request',
  ],
];

// Sentences near the new rules' words that are not their kind (a past closure, a form
// left on a desk, "passo" as "I'll drop by", an intern who is interested): 12 of 24 were
// misread before the rules were narrowed.
const NEAR_MISSES: Row[] = [
  ['We closed the deal with our largest client yesterday, congrats to the team.', 'neutral'],
  ["Our office is closed on Sundays, but let's talk Monday at 10am?", 'meeting_request'],
  ['I left the signed form on your desk last week.', 'neutral'],
  ['He quit smoking in March, good for him.', 'neutral'],
  ['Is the whole team off on Friday?', 'neutral'],
  ['Do you have documentation on how the API handles retries?', 'interested'],
  ['Ich komme morgen bei Ihnen vorbei, passt 10 Uhr?', 'meeting_request'],
  ['Unser Lager ist jetzt größer, wir haben es im Sommer umgebaut.', 'neutral'],
  ['Wir haben das Büro im März verlassen und sind umgezogen.', 'neutral'],
  ["J'ai quitté la réunion plus tôt hier, désolé.", 'neutral'],
  ['Je passe à votre bureau jeudi à 15h ?', 'meeting_request'],
  ['La tienda estuvo cerrada ayer por la huelga, ¿lo sabía?', 'neutral'],
  ['Paso por su oficina el martes a las 10, ¿le va bien?', 'meeting_request'],
  ['Saí da reunião mais cedo ontem.', 'neutral'],
  ['Passo aí na quinta às 15h, pode ser?', 'meeting_request'],
  ['Passo domani in ufficio alle 10, va bene?', 'meeting_request'],
  ['Passo la sua mail al collega.', 'neutral'],
  ['Ho lasciato il documento in reception a marzo.', 'neutral'],
  ['Ik heb het contract in maart getekend voor ons nieuwe pand.', 'neutral'],
  ['De winkel was gisteren gesloten vanwege de storm.', 'neutral'],
  ['Ik kom dinsdag om 10 uur langs, past dat?', 'meeting_request'],
  ["Forwarded to the team, they'll decide next week.", 'neutral'],
];

describe.each([
  ['an office or company closed for a period is an absence', OFFICE_CLOSED],
  ['an automatic notice that the person has gone is wrong_person, not a pause', GONE_NOTICE],
  ['someone left, with a company or a time in between', LEFT],
  ['the writer has no say (intern, apprentice)', NO_SAY],
  ['we came to the wrong address or department', WRONG_ADDRESS],
  ['forwarding to a colleague is neutral', FORWARDED],
  ['a decline: signed elsewhere, frozen budget, a short "no thanks"', DECLINE],
  ['a meeting by video tool or booking link', MEETING],
  ['asking to be taken off the list, and one-word opt-outs', UNSUBSCRIBE],
  ['asking for an offer or details', INTERESTED],
  ['a second round of everyday wordings in every class', SECOND_ROUND],
  ['formal letters with greeting and signature', FORMAL_ROUND],
  ['near misses: the same words in another kind', NEAR_MISSES],
])('%s', (_kind, rows) => {
  it.each(rows)('%s -> %s', (text, label, subject, headers) => {
    expect(classifyReplyText({ subject: subject ?? 'Re: hello', text, headers }).replyClass).toBe(label);
  });
});
