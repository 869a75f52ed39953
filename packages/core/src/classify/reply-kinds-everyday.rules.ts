import type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

// Everyday wordings of the reply kinds, in English, German, French, Spanish,
// Portuguese, Italian and Dutch, written as vocabulary lists (verbs and nouns per
// language, with their common inflections) rather than as whole sentences: the
// informal second person ("streich mich", "elimíname", "deja de escribirme"), an
// object between the verb and its noun ("ein unverbindliches Angebot"), telegraphic
// absences ("De férias até segunda"), and a decline that names a contract signed
// elsewhere. Folded text: lower case, no accents (see foldText).
const alt = (...words: string[]): string => `(?:${words.join('|')})`;

/** a, then b within `gap` words, in one sentence. */
const near = (a: string, b: string, gap = 6): string =>
  `\\b${a}\\b(?:[^\\w.!?\\n]+[\\w'-]+){0,${gap}}?[^\\w.!?\\n]+${b}\\b`;

// --- asking for something to be sent: an offer, prices, a catalogue, samples --------
const SEND = alt(
  'send',
  'sending',
  'senden sie',
  'schicken sie',
  'zusenden',
  'zukommen lassen',
  'schick',
  'schickt',
  'sende',
  'envoyer',
  'envoyez',
  'envoie',
  "m'envoyer",
  'nous envoyer',
  'faire parvenir',
  'enviar(?:me|nos)?',
  'envie(?:me|nos)?',
  'enviara',
  'enviase',
  'enviame',
  'envianos',
  'mand(?:e|en|a|ar|ara|ame|eme|anos|enos|ad|adme)',
  'manda(?:-me)?',
  'envia(?:-me)?',
  'envie(?:-me|m)?',
  'mandi',
  'mandami',
  'mandateci',
  'mandatemi',
  'inviar(?:e|mi|ci)',
  'inviate(?:ci|mi)?',
  'inviami',
  'invii',
  'stuur',
  'stuurt',
  'sturen',
  'opsturen',
  'share',
  'partager',
  'compartir',
  'condividere',
  'delen',
  'pasar',
  'passar',
  'pasa(?:me|nos)?',
  'pasad(?:me|nos)?',
  'passa(?:-me)?',
  'me passa',
  'toesturen',
);
const OFFER = alt(
  'offer',
  'quote',
  'quotation',
  'proposal',
  'pricing',
  'prices?',
  'price list',
  'rates',
  'catalog(?:ue)?',
  'brochure',
  'samples?',
  'info',
  'information',
  'details',
  'angebot',
  'preise',
  'preisliste',
  'katalog',
  'infos',
  'informationen',
  'unterlagen',
  'muster',
  'devis',
  'tarifs?',
  'catalogue',
  'echantillons?',
  'documentation',
  'programme',
  'proposition',
  'presupuesto',
  'precios',
  'tarifa',
  'catalogo',
  'muestras?',
  'informacion',
  'propuesta',
  'orcamento',
  'precos',
  'amostras?',
  'informacoes',
  'proposta',
  'preventivo',
  'prezzi',
  'listino',
  'campioni',
  'programma',
  'offerta',
  'offertes?',
  'voorstel',
  'propuesta',
  'prijsopgave',
  'prijsindicatie',
  'costs?',
  'couts',
  'costes',
  'custos',
  'costi',
  'kosten',
  'overzicht',
  'overview',
  'ubersicht',
  'apercu',
  'resumen',
  'resumo',
  'panoramica',
  'presentatie',
  'prasentation',
  'kostenindicatie',
  'kostenvoranschlag',
  'prijzen',
  'prijslijst',
  'catalogus',
  'informatie',
);

// --- a supplier chosen or a contract signed elsewhere --------------------------------
const OTHER_SUPPLIER = alt(
  `${alt('another', 'a different', 'other', 'autre', 'otra', 'otro', 'outr[oa]', 'altr[oa]', "un'altra", 'andere[nm]?', 'anderen', 'ander')} ${alt(
    'vendor',
    'supplier',
    'provider',
    'company',
    'partner',
    'agency',
    'firm',
    'fournisseur',
    'prestataire',
    'entreprise',
    'societe',
    'agence',
    'empresa',
    'proveedor',
    'agencia',
    'fornecedor',
    'parceiro',
    'fornitore',
    'corriere',
    'azienda',
    'agenzia',
    'societa',
    'partij',
    'leverancier',
    'aanbieder',
    'bureau',
    'anbieter',
    'dienstleister',
    'lieferant(?:en)?',
    'firma',
    'bedrijf',
  )}`,
  '(?:a |one of your |un |uno de sus |um |un vostro |een )?(?:competitors?|concurrents?|concorrentes?|competidores?|concorrenti|konkurrenten?)',
);
const SIGNED = alt(
  'signed',
  'sign',
  'contract',
  'went with',
  'gone with',
  'chose',
  'unterschrieben',
  'vertrag',
  'signe',
  'signer',
  'contrat',
  'firmado',
  'firmar',
  'contrato',
  'fechamos',
  'assinamos',
  'firmato',
  'contratto',
  'getekend',
  'contract',
  'work with',
  'working with',
  'arbeiten mit',
  'travaillons',
  'trabajamos con',
  'trabalhamos com',
  'lavoriamo',
  'werken (?:al )?(?:samen )?met',
);

// --- personal data and erasing it (GDPR art. 17 requests) ---------------------------
const PERSONAL_DATA = alt(
  '(?:all )?(?:my|our) (?:personal )?(?:data|details|information|info|contact details)',
  '(?:all )?(?:the )?(?:personal )?(?:data|information) (?:you hold|you have|you store)(?: about| on| of)? (?:me|us)?',
  '(?:meine|unsere) (?:personlichen |personenbezogenen )?(?:daten|kontaktdaten|angaben)',
  '(?:mes|nos) (?:donnees|coordonnees|informations)(?: personnelles)?',
  '(?:mis|nuestros) (?:datos|datos personales)',
  '(?:meus|nossos) (?:dados|dados pessoais)',
  '(?:miei|nostri) (?:dati|dati personali)',
  '(?:mijn|onze) (?:persoons)?gegevens',
);
const ERASE = alt(
  'delete',
  'deletion',
  'erase',
  'erasure',
  'remove',
  'removal',
  'loschen',
  'loschung',
  'entfernen',
  'supprimer',
  'suppression',
  'effacer',
  'effacement',
  'supresion',
  'suprimir',
  'borrar',
  'borrado',
  'eliminar',
  'eliminacion',
  'cancellazione',
  'cancellare',
  'eliminare',
  'rimozione',
  'verwijderen',
  'verwijdering',
  'wissen',
  'exclusao',
  'excluir',
  'apagar',
  'eliminacao',
);

/** A sentence that holds every one of `needs` and then `last`. */
const sentenceWith = (needs: string[], last: string): string =>
  `(?:^|(?<=[.!?\\n]))${needs.map((n) => `(?=[^.!?\\n]*\\b${n}\\b)`).join('')}[^.!?\\n]*\\b${last}\\b`;
const STAY = alt(
  'stay',
  'remain',
  'stick',
  'continue',
  'bleiben',
  'rester',
  'seguir',
  'continuar',
  'restare',
  'rimanere',
  'blijven',
);
const CURRENT = alt(
  'current',
  'existing',
  'jetzigen',
  'aktuellen',
  'bisherigen',
  'actuel',
  'actuelle',
  'actual',
  'atual',
  'attuale',
  'huidige',
  'bestaande',
);

const MATERIAL = alt(
  'brochure',
  'broschure',
  'folleto',
  'folheto',
  'deck',
  'one-?pager',
  'case stud(?:y|ies)',
  'catalog(?:ue)?',
  'katalog',
  'catalogo',
  'documentation',
  'dokumentation',
  'documentacion',
  'documentacao',
  'documentazione',
  'documentatie',
  'presentation',
  'prasentation',
  'presentacion',
  'apresentacao',
  'presentazione',
  'presentatie',
  'datasheet',
  'datenblatt',
  'fiche produit',
  'flyer',
);
const IMPLEMENTATION = alt(
  'onboarding',
  'implementation',
  'rollout',
  'roll-out',
  'setup',
  'einfuhrung',
  'implementierung',
  'deploiement',
  'mise en place',
  'implantacion',
  'implementacion',
  'implantacao',
  'implementacao',
  'implementazione',
  'implementatie',
  'invoering',
);
// --- head office decides; redirect to another department ----------------------------
const HEAD_OFFICE = alt(
  'head office',
  'headquarters',
  'hq',
  'group level',
  'zentrale',
  'konzern(?:zentrale)?',
  'siege',
  'maison mere',
  'central',
  'casa matriz',
  'matriz',
  'sede centrale',
  'casa madre',
  'capogruppo',
  'hoofdkantoor',
  'moederbedrijf',
);
const DECIDES = alt(
  'decid\\w*',
  'decision\\w*',
  'entscheid\\w*',
  'trifft',
  'prises',
  'toma',
  'tomadas?',
  'prende',
  'decisioni',
  'beslis\\w*',
  'genomen',
  'purchas\\w*',
);
const REDIRECT = alt(
  'redirect',
  'direct',
  'address',
  'forward',
  'send',
  'richten sie',
  'wenden sie',
  'rediriger',
  'adresser',
  'dirija',
  'dirigir',
  'direcione',
  'encaminhe',
  'indirizzare',
  'indirizzi',
  'inoltri',
  'richt',
  'richten',
);
const OUR = alt(
  'our',
  'unseren',
  'unsere',
  'unser',
  'notre',
  'nos',
  'nuestro',
  'nuestra',
  'nosso',
  'nossa',
  'il nostro',
  'al nostro',
  'la nostra',
  'onze',
  'mein(?:en)?',
  'mon',
  'ma',
  'mi',
  'meu',
  'minha',
  'mio',
  'mia',
  'mijn',
);

// --- absence in few words, at an event, or with little access to mail ---------------
const AWAY_UNTIL = alt(
  '(?:on|back from) (?:holiday|vacation|leave|pto)s? (?:until|till|til|through|thru)',
  'out of (?:the )?office (?:until|till|til|through)',
  '(?:im )?urlaub bis',
  'in (?:den )?ferien bis',
  'en (?:conges|vacances) (?:jusqu|au)',
  'de vacaciones hasta',
  'de (?:ferias|folga) ate',
  'in (?:ferie|vacanza) fino',
  '(?:op|met) vakantie (?:tot|t/m)',
);
const AT_EVENT = alt(
  "(?:i am|i'm|im|we are|we're) at (?:the |a |an )?(?:trade ?(?:fair|show)|expo|conference|congress|summit|convention)",
  'auf (?:der|einer) (?:messe|konferenz|tagung)',
  'auf (?:dem|einem) (?:kongress|messestand)',
  '(?:je suis|nous sommes|je serai|nous serons) (?:sur|au|a|en) (?:le |un |une |la )?(?:salon|conference|congres|seminaire)',
  'estoy en (?:la |una |el )?(?:feria|congreso|conferencia|fitur|evento)',
  '(?:estou|estarei) (?:na|numa|no|num) (?:feira|congresso|conferencia|evento)',
  '(?:sono|saro) (?:alla|a una|in|al|a un) (?:fiera|congresso|conferenza|salone)',
  '(?:sta|ben|zit) (?:ik )?op (?:een|de) (?:beurs|congres|conferentie)',
);
const LITTLE_MAIL = alt(
  '(?:limited|little|sporadic|occasional) (?:access to )?(?:e-?mail|my (?:e-?mail|inbox))',
  '(?:checking|reading|read|check) (?:my )?(?:e-?mails?|inbox) (?:only )?(?:occasionally|sporadically|rarely|intermittently)',
  '(?:lese|checke|prufe|lesen|beantworte) (?:meine |die )?(?:e-?mails?|mails?|nachrichten) (?:nur )?(?:eingeschrankt|sporadisch|unregelmassig|selten|verzogert)',
  '(?:nur )?eingeschrankt erreichbar',
  'acces (?:limite|restreint) (?:a|aux) (?:mes )?(?:e-?mails?|mails?|courriels?|messagerie)',
  '(?:je )?(?:consulte|lis|regarde) (?:peu|rarement|ponctuellement) mes (?:e-?mails?|mails?|messages|courriels)',
  'apenas (?:miro|leo|reviso|consulto|veo) (?:el )?(?:correo|email|e-?mail)',
  'acceso limitado (?:al|a mi) (?:correo|email)',
  '(?:quase nao|pouco|raramente) (?:leio|vejo|acesso|olho) (?:o |os |meus )?(?:e-?mails?|emails?)',
  'acesso limitado (?:ao|aos) (?:e-?mails?|emails?)',
  "(?:leggo|controllo|guardo) (?:poco|raramente|saltuariamente) (?:la posta|le e?-?mail|l'e-?mail|la mail)",
  "accesso limitato (?:alla posta|alle e?-?mail|all'e-?mail)",
  '(?:lees|check|bekijk) (?:ik )?(?:mijn )?(?:e-?)?mail (?:beperkt|sporadisch|nauwelijks|af en toe)',
  'beperkt bereikbaar',
);

/** Rules per group, merged after the earlier lists (see reply-rules.ts). */
export const EVERYDAY_KIND_RULES: Readonly<Partial<Record<ReplyRuleGroup, readonly ReplyRule[]>>> = {
  unsubscribe: [
    {
      label: 'tells us to stop sending, in Dutch word order',
      pattern: /\bstop (alsjeblieft |aub |nou |toch )?met (het )?(sturen|mailen|e-?mailen|versturen)\b/,
    },
    {
      label: 'asks to take their address out of our system (seven languages)',
      pattern:
        /\b(take|get|nehmen sie|entfernen sie|retirez|sortez|quitad|quiten|saquen|tirem|removam|togliete|rimuovete|haal|verwijder)\b[^.!?]{0,30}\b(my|meine|mon|ma|mi|meu|minha|il mio|la mia|mijn) (e-?mail-?)?(address|adresse|e-?mail|direccion|correo|endereco|indirizzo|adres|e-?mailadres|contact)\b[^.!?]{0,20}\b(out of|aus|de|del|da|do|dal|dalla|uit) (your|ihrem|ihrer|votre|vuestro|su|seu|do|vostro|jullie|uw)?\s?(system|systeem|sistema|systeme|datenbank|database|crm|base|bestand)\b|\b(apaguem|apague|apaga|borrad|borren|cancellate|cancelli|wis|verwijder|delete|remove|loschen sie|effacez|supprimez) (o |el |il |het )?(meu|minha|mi|mio|mijn|my|meine|mon) (e-?mail|endereco|correo|direccion|indirizzo|adres|e-?mailadres|e-?mail-adresse|address|adresse)\b/,
    },
    {
      label: 'asks, informally, to be taken off the list (seven languages)',
      pattern:
        /\b(me tira|tira-me|tire-me|me tire|toglimi|toglieteci|levami|cancellami|sacame|quitame|haal (me|mij)|take me|get me) (\w+ ){0,2}(da|das|dessa|desta|dessas|destas|dalla|dalle|dai|de la|de|van|uit|off|from) (\w+ ){0,2}(lista|liste|lijst|mailing ?list|mailinglijst|newsletter|list)\b/,
    },
    {
      label: 'asks formally to refrain from contact, or objects to marketing mail (seven languages)',
      pattern:
        /\brefrain from (contacting|emailing|writing to|messaging)\b|\b(object|objection) to (receiving|the processing|any (further )?(marketing|contact))\b|\bsehen sie (bitte )?(kunftig |zukunftig |in zukunft )?von (einer |jeder |weiteren )?(kontaktaufnahme|kontakt|zusendungen|e-?mails) ab\b|\bm'oppose (a|au) (la reception|l'envoi|tout envoi|vos)\b|\babstenga(n)? de (contactar|escribir|enviar)(me|nos)?\b|\bme opongo a (recibir|que)\b|\b(peco|pedimos|solicito) que nao (entrem|entre|me contatem|nos contatem) mais\b|\bnao autorizo (o envio|o uso|o contato|contato)\b|\bnon contattar(mi|ci) piu\b|\bmi oppongo (alla ricezione|all'invio|al trattamento)\b|\b(mij|ons) (in de toekomst |voortaan )?niet (meer )?te (benaderen|contacteren|mailen|e-?mailen)\b|\bmaak (ik )?bezwaar tegen\b/,
    },
    {
      label: 'asks to erase their personal data (GDPR and its national names, seven languages)',
      pattern: new RegExp(
        [
          near(ERASE, PERSONAL_DATA, 6),
          near(PERSONAL_DATA, ERASE, 4),
          "\\b(right to (erasure|be forgotten)|droit (a l'effacement|a l'oubli)|derecho (de supresion|al olvido)|diritto (alla cancellazione|all'oblio)|recht op (vergetelheid|verwijdering)|recht auf (loschung|vergessenwerden)|direito (ao esquecimento|de exclusao))\\b",
        ].join('|'),
      ),
    },
    {
      label: 'never signed up, or answers with one word asking removal (seven languages)',
      pattern:
        /\b(i|we) never (signed up|subscribed|opted in|asked for (this|these|your))\b|^(remover|remova|removam|rimuovi(mi)?|cancellami|cancellatemi|verwijder( mij| me)?|uitschrijven|afmelden|desinscrire|desinscrivez-moi|darse de baja|dar de baja|descadastrar|austragen bitte|bitte austragen)[.!]*$|\b(wil|willen) (niets|niks|geen (e-?mails?|mails?|berichten|nieuwsbrieven)) meer (ontvangen|krijgen)\b/,
    },
    {
      label: 'asks to be signed off (Spanish imperatives)',
      pattern: /\b(da|dad|de|den)(me|nos) de baja\b/,
    },
    {
      label: 'asks, in the familiar form, to be struck off or to stop writing (seven languages)',
      pattern: new RegExp(
        [
          '\\b(streich|streicht|nimm|nehmt|trag|tragt|losch|loscht)(e)? (mich|uns) (bitte |doch |sofort )?(von|aus)\\b',
          '\\b(von|aus) (deiner|eurer|deinem|eurem) (liste|verteiler|mailingliste|datenbank)\\b',
          '\\b(eliminame|borrame|quitame|sacame|eliminanos|borranos|quitanos|sacanos)\\b',
          '\\b(deja|dejes|dejen|dejad|dejar) de (escribir|enviar|mandar|contactar|molestar)(me|nos)?\\b',
          '\\b(smettila|smettetela|smettete|smetta|smettere) di (scriver|mandar|inviar|contattar|disturbar)\\w*',
          '\\bbasta (con le |con los |de |com )?(mail|e-?mail|email|messaggi|correos|mensajes|e-?mails)\\b',
          '\\b(tira|tire|tirem|remove|apaga|apague)(-me| me)? (da|das) (sua|tua|vossa|suas) (lista|listas|base)\\b',
          '\\b(haal|verwijder) (mij|me|ons) (even |graag |nu )?(uit|van) (je|jullie|uw|de) (lijst|bestand|mailinglijst|database)\\b',
          '\\b(stop|quit) (e-?mailing|emailing|writing to|messaging) me\\b',
        ].join('|'),
      ),
    },
  ],
  left_company: [
    {
      label: 'says someone retired or their mailbox is no longer read (seven languages)',
      pattern:
        /\bin (rente|pension|den ruhestand) gegangen\b|\bse jubilo\b|\bmet pensioen gegaan\b|\b(inbox|mailbox|postfach|boite|buzon|caixa|casella)\b[^.!?]{0,30}\b(is )?(no longer (monitored|read|checked)|nicht mehr (gelesen|abgerufen|bearbeitet)|n'est plus (consultee|lue|relevee)|ya no se (revisa|lee|consulta)|nao e mais (lida|verificada|consultada)|non (e|viene) piu (letta|controllata|consultata)|(wordt )?niet meer (gelezen|bekeken|gecontroleerd))\b/,
    },
    {
      label: 'says they will not come back to the role or the company (seven languages)',
      pattern:
        /\b(will not|won'?t) (be )?(back|return(ing)?|coming back) (in|to) (this|my|the) (role|position|job|company)\b|\bnot (be )?returning to (the company|this role|my role|this position)\b|\b(kehre|komme) nicht (mehr )?(in das unternehmen |in die firma |auf diese stelle )?zuruck\b|\bne reviendrai pas (dans|a|au sein)\b|\bno volvere (a la empresa|a este puesto|al puesto)\b|\bnao voltarei (para a empresa|a empresa|ao cargo)\b|\bnon tornero (in azienda|in questo ruolo|al mio posto)\b|\bkom (ik )?niet (meer )?terug (bij|in|op) (het bedrijf|deze functie|mijn functie)\b/,
    },
    {
      label: 'says someone left at a given time, or no longer works there (seven languages)',
      pattern:
        /\b(left|quit) (the company |the firm |us )?(in|last|at the end of|back in|earlier this) (january|february|march|april|may|june|july|august|september|october|november|december|\d{4}|year|month|week|summer|spring|autumn|fall|winter)\b|\bwerkt (hier |daar )?niet meer\b/,
    },
    {
      label: 'says someone no longer works there (third person, seven languages)',
      pattern: new RegExp(
        [
          '\\b(nao trabalha|nao esta) mais (conosco|aqui|na empresa|com a gente|com nos|nesta empresa)\\b',
          '\\bnon lavora piu (presso|con|da|in|per|qui)\\b|\\bnon e piu (presso|con noi|in azienda|qui)\\b',
          '\\b(is|zijn) niet meer (werkzaam|in dienst|actief) (bij|in|voor)\\b|\\bwerkt (hier )?niet meer (bij|voor|hier)\\b',
          '\\bya no trabaja (aqui|con nosotros|en|para)\\b',
          '\\bne travaille plus (ici|chez|avec|pour|dans|au sein)\\b',
          '\\b(ist|arbeitet) nicht mehr (bei uns|hier|fur uns|im haus|im hause)\\b',
          '\\b(no longer works|is no longer) (here|with us|at)\\b',
        ].join('|'),
      ),
    },
  ],
  wrong_person: [
    {
      label: 'names the one we should talk to instead (seven languages)',
      pattern:
        /\bis the (one|person) you (want|need|should talk to)\b|\bwho you (want|need) (is|to talk to)\b|\bda wollen sie zu\b|\bqu'il vous faut\b|\bcon quien (tienes|tiene|debes|debe) que hablar\b|\bquem (voce|o senhor|a senhora) (procura|quer|precisa)\b|\b(deve|devi|dovete) parlare con\b|\b(je|u) moet (bij|met) \w+ (zijn|praten|spreken)\b/,
    },
    {
      label: 'says they only handle another area (seven languages)',
      pattern:
        /\b(i|ich) (only|just) (handle|do|look after|cover|work on|deal with)\b|\bbin nur (fur|zustandig fur)\b|\bje ne m'occupe que\b|\b(yo )?solo (llevo|me ocupo de|gestiono|hago)\b|\b(eu )?so (cuido|trato|mexo) (de|com)\b|\bmi occupo solo (di|delle|dei|della|del)\b|\bik doe (alleen|enkel|uitsluitend)\b/,
    },
    {
      label: 'says wrong person or not me, in few words (seven languages)',
      pattern:
        /\b(mauvaise personne|mauvais (interlocuteur|contact|destinataire)|persona (sbagliata|equivocada|incorrecta|errada)|pessoa errada|wrong (guy|person|contact|address)|verkeerde persoon|falsche person|contatto sbagliato|contacto equivocado)\b|\b(te |se )?equivoca(ste|ron|do|da|steis)? de (persona|contacto|destinatario)\b|^\W*(no soy yo|nao sou eu|non sono io|not me|c'est pas moi|ce n'est pas moi|ich bin es nicht|das bin ich nicht|ik ben het niet)\b|\bniet mijn (ding|pakkie-an|afdeling)\b/,
    },
    {
      label: 'says head office decides, or to redirect the request to another department (seven languages)',
      pattern: new RegExp(
        [
          `(?:^|(?<=[.!?\\n]))(?=[^.!?\\n]*\\b${HEAD_OFFICE}\\b)[^.!?\\n]*\\b${DECIDES}`,
          near(
            REDIRECT,
            `${OUR} (?:[\\w]+-)?${alt('procurement', 'purchasing', 'einkauf', 'service achats', 'departamento de compras', 'setor de compras', 'ufficio acquisti', 'afdeling inkoop', 'inkoop', 'department', 'team', 'abteilung', 'service', 'departamento', 'setor', 'ufficio', 'afdeling', 'kollegen', 'collegue', 'colega', 'collega')}`,
            6,
          ),
        ].join('|'),
      ),
    },
    {
      label: 'says they have nothing to do with it, or are not involved (seven languages)',
      pattern:
        /\bnothing to do with (this|that|it|these|purchasing|the)\b|\bnot involved (in|with)\b|\bnichts (damit |mit [\w ]{1,25})?zu tun\b|\bnicht (damit )?befasst\b|\b(je )?n'ai rien a voir\b|\bpas implique(e)? dans\b|\bno tengo nada que ver\b|\bno estoy involucrad[oa]\b|\bnao tenho nada a ver\b|\bnao estou envolvid[oa]\b|\bnon ho (niente|nulla) a che (fare|vedere)\b|\bnon sono coinvolt[oa]\b|\bheb (ik )?(niets|niks) (mee|met [\w ]{1,25}) te maken\b|\bniet betrokken bij\b/,
    },
    {
      label: 'changed roles and no longer handles it (seven languages)',
      pattern: new RegExp(
        [
          '\\b(switched|changed|moved) (roles|jobs|positions|teams|departments)\\b|\\bno longer (look after|handle|manage|own|run|cover|work on|deal with|responsible for|in charge of)\\b',
          '\\b(abteilung|position|stelle|rolle|bereich|funktion|job) gewechselt\\b|\\b(betreue|verantworte|bearbeite|mache|leite) (das|dieses|den|die|diesen) ([\\w-]+ )?nicht mehr\\b|\\bnicht mehr zustandig\\b',
          "\\b(ne suis plus|n'est plus|ne sommes plus) (en charge|responsable|charge)\\b|\\b(change|changee) de (poste|service|fonction|metier)\\b",
          '\\bcambie de (puesto|area|departamento|trabajo|funciones)\\b|\\bya no (me ocupo|llevo|gestiono|soy (el |la )?responsable)\\b',
          '\\bmudei de (area|cargo|setor|departamento|funcao|time)\\b|\\bnao (cuido|trato|sou (mais )?responsavel|respondo|fico) mais\\b',
          '\\b(ho )?cambiato (ruolo|reparto|ufficio|mansione|lavoro|settore)\\b|\\bnon (seguo|gestisco|mi occupo|sono (piu )?responsabile|curo) piu\\b',
          '\\bvan (functie|afdeling|baan|rol) (gewisseld|veranderd)\\b|\\bdoe (ik )?geen [\\w-]+ meer\\b|\\b(ben|is) (niet meer|geen) verantwoordelijk\\b',
        ].join('|'),
      ),
    },
    {
      label: 'forwarded our mail to the one who decides (seven languages)',
      pattern: new RegExp(
        [
          '\\bencaminhei (seu|o seu|teu|sua|a sua|o|a) (e-?mail|mensagem|contato|pedido)\\b',
          '\\bho (inoltrato|girato) (la tua|la sua|il tuo|il suo|questa|la) (mail|e-?mail|messaggio|richiesta)\\b',
          '\\b(heb|ik heb) (je|jouw|uw|de) (mail|e-?mail|bericht|vraag) doorgestuurd\\b',
          '\\b(he|she|hij|zij|lui|lei|ele|ela|er|il|elle|el|ella) (beslist|decide|decides|entscheidet|besluit) (hierover|daarover|this|that|these|das|daruber)?\\b(?! (not|nicht|niet|pas|no|non|nao))',
          '\\b(e|is) (quem|quello che|quella che|wie|die|who|la persona che|la persona que|quien) (decide|beslist|decides)\\b',
        ].join('|'),
      ),
    },
    {
      label: 'says who handles it, or where to write for it (seven languages)',
      pattern: new RegExp(
        [
          '\\b(for (this|that|these (things|matters|questions)),? (please )?(contact|write to|reach out to|email|speak to|talk to))\\b',
          '\\bdafur (mussen|sollten|konnen|mochten) sie sich (bitte )?an\\b|\\b(wer|die person,? die) (das|dies|sich darum) (entscheidet|kummert|betreut)\\b',
          "\\bqui (gere|s'occupe de|suit|traite) (ce|ces|le|les|cette) (sujet|sujets|dossier|dossiers|question|questions|achats)\\b|\\b(je )?(transmets|fais suivre|transfere) (a|au|votre message a|votre mail a) (ma|mon|notre|la|le) (collegue|responsable|service)\\b",
          '(?<!\\b(soy yo|yo soy|es) )\\bquien (lleva|gestiona|se encarga de|decide|ve) (esto|eso|estos temas|este tema|el tema|las compras)\\b',
          '(?<!\\b(sou eu|eu sou) )\\bquem (trata|cuida|decide|responde|resolve) (disso|desse|dessa|por isso|destes assuntos|das compras)\\b',
          '\\bper (queste cose|questo|questi temi|questa materia|questo tipo di cose),? (deve|puo|devi|puoi|dovete|potete) (scrivere|rivolgersi|rivolgerti|contattare|sentire)\\b',
          '\\bhiervoor (moet|kunt|kan|moeten) (u|je|jullie) (bij|naar|contact)\\b|\\bdaarvoor (moet|kunt) (u|je) (bij|naar)\\b',
        ].join('|'),
      ),
    },
    {
      label: 'points to another department, or does not take these decisions (seven languages)',
      pattern:
        /\byou('ll)? (want|need) (to talk to |to speak (to|with) )?(our |the |someone in )?(marketing|sales|it|hr|finance|procurement|purchasing|ops|operations|legal|engineering|facilities)\b|\b(don'?t|do not) make (these|those|the|such|any) (decisions|calls|purchasing decisions)\b|\bno es cosa mia\b|\bnon e (roba|cosa) mia\b|\b(daar|hier) heb ik (niks|niets) mee te maken\b|\bce n'est pas mon affaire\b|\b(escreva|escreve|escrevam|mande (um )?e-?mail) para\b[^@\n]{0,30}@/,
    },
    {
      label: 'says we have the wrong person (seven languages)',
      pattern:
        /\byou('ve| have)? (got )?the wrong (person|contact|guy|address)\b|\bvous vous etes trompe(e)? de (personne|contact|destinataire)\b|\b(errou|erraram) de (pessoa|contato|e-?mail|destinatario)\b|\b(ha|hai|avete) sbagliato (persona|contatto|indirizzo|destinatario)\b|\b(de )?verkeerde (persoon|contactpersoon|afdeling|man|vrouw)\b/,
    },
    {
      label: 'names a colleague who handles it (seven languages)',
      pattern:
        /\b(my|our) (colleague|coworker|co-worker|team ?mate|boss|manager)\b[^.!?]{0,40}\b(handles|looks after|owns|runs|deals with|is in charge of|takes care of) (that|this|it|these)\b|\bse ne occupa(no)?\b|\bdat doet (mijn|onze|de|het) (collega|afdeling|baas|team|manager)\b|\b(mijn|onze) collega\b[^.!?]{0,30}\b(doet|regelt) (dat|dit)\b/,
    },
    {
      label: 'says it is not their department or job (seven languages)',
      pattern: new RegExp(
        [
          "\\b(isn'?t|is not|not|aren'?t|are not) (really )?(my|in my|our) (department|area|remit|job|responsibility|field|call|decision|domain)\\b",
          '\\b(is |ist )?nicht (mein|meine|meiner) (abteilung|bereich|aufgabe|ressort|zustandigkeit)\\b',
          "\\bce n'est pas (mon|de mon) (service|rayon|domaine|ressort|role|poste)\\b|\\bje ne m'occupe (plus|pas) (de|du|des|de la)\\b|\\bj'ai change de poste\\b",
          '\\bno es (mi|de mi) (departamento|area|trabajo|responsabilidad)\\b|\\bno me (encargo|ocupo) (yo )?(de|del)\\b',
          '\\bnao e (do )?meu (departamento|setor|trabalho|area)\\b|\\bnao (cuido|trato|me ocupo) (disso|desse|dessa|de)\\b',
          '\\bnon e (il mio|di mia|del mio) (reparto|ufficio|settore|competenza|lavoro)\\b|\\bnon mi occupo (io )?(di|del|della|dei|delle)\\b',
          '\\b(is |dit is |dat is )?niet mijn (afdeling|terrein|taak|pakkie-an|verantwoordelijkheid)\\b|\\b(daar |hier )?ga ik niet over\\b|\\bben ik niet over\\b|\\bga ik niet over\\b',
        ].join('|'),
      ),
    },
    {
      label: 'says it is not them who handles or decides it (seven languages)',
      pattern: new RegExp(
        [
          "\\b(it'?s|it is) not me who (handles|decides|deals|looks after|takes care)\\b",
          '\\bno soy yo (el|la|quien)( que)? (lleva|llevo|decide|decido|gestiona|se encarga|me encargo|compra)\\b',
          '\\bnao sou eu (que|quem) (cuido|cuida|decido|decide|trato|resolvo|respondo|compro)\\b',
          '\\bnon sono io (che|a|quello che|quella che) (mi occupo|decido|gestisco|seguo|decidere|occuparmi)\\b',
          "\\bce n'est pas moi qui (gere|decide|m'occupe|s'occupe|traite)\\b",
          '\\bnicht ich (entscheide|kummere mich|bin zustandig)\\b|\\bdas entscheide nicht ich\\b',
          '\\bik ben (niet )?degene die\\b[^.]{0,20}\\b(niet )?(beslist|regelt|gaat)\\b',
        ].join('|'),
      ),
    },
    {
      label: 'says the owner, the boss or another person decides (seven languages)',
      pattern: new RegExp(
        [
          '\\b(the|my|our) (owner|boss|manager|director|ceo|md|founder)s? (decides|handles|makes the decisions?|makes that call)\\b',
          '\\b(entscheidet|entscheiden) (bei uns )?(der|die|mein|meine|unser|unsere) (chef|chefin|inhaber|inhaberin|geschaftsfuhrer|geschaftsfuhrerin|vater|mutter|onkel)\\b',
          "\\b(c'est|ce sont) (le|la|mon|ma|notre) (patron|patronne|gerant|gerante|directeur|directrice|proprietaire) qui (decide|gere|s'occupe)\\b",
          '\\b(lo|las|los|eso lo|esas cosas las|estas cosas las) (decide|lleva|gestiona) (el|la|mi) (jefe|jefa|dueno|duena|gerente|director|directora|padre|tio)\\b',
          '\\b(quem (decide|cuida) (e|disso e) (o|a|meu|minha) (dono|dona|chefe|gerente|diretor|diretora|pai|tio))\\b',
          '\\b(le|li|lo|la) (decide|gestisce|segue) (il|la|mio|mia) (titolare|capo|direttore|direttrice|padre|zio|proprietario|responsabile)\\b',
          '\\b(beslist|besluit|gaat) (de|mijn|onze) (eigenaar|baas|directeur|directie|chef|vader)\\b',
        ].join('|'),
      ),
    },
    {
      label: 'says they only do another job there (seven languages)',
      pattern: new RegExp(
        [
          "\\b(i'?m|i am) (just|only) (the|a|an) (receptionist|intern|assistant|mechanic|driver|temp|trainee|technician|cashier)\\b",
          '\\b(io )?sono solo (il|la|un|una|lo) \\w+\\b(?=[^.]{0,60}\\b(decide|decidono|titolare|responsabile|capo)\\b)',
          '\\bik doe (alleen|enkel) (de|het) \\w+\\b',
          '\\b(yo )?(estoy|trabajo) en (ventas|contabilidad|administracion|almacen|recepcion|produccion|marketing)\\b',
          '\\bsou d[oa] (comercial|financeiro|administrativo|rh|atendimento|recepcao|marketing|suporte)\\b',
          '\\bik zit op (finance|sales|de administratie|inkoop|marketing|de receptie|hr)\\b',
        ].join('|'),
      ),
    },
  ],
  out_of_office: [
    {
      label: 'reads messages only in the evening (seven languages)',
      pattern:
        /\b(checking|reading|check|read|lese|consulte|miro|vejo|leggo|lees)\b[^.!?]{0,30}\b(only|nur|que|solo|so|alleen)\b[^.!?]{0,20}(in the evening|at night|abends|le soir|por la noche|a noite|la sera|'?s avonds)|\b(only|nur|solo|so|alleen)\b[^.!?]{0,10}\b(check|read|lese|miro|vejo|leggo|lees)\b[^.!?]{0,30}(in the evening|at night|abends|le soir|por la noche|a noite|la sera|'?s avonds)/,
    },
    {
      label: 'is on a training course, or reachable only now and then (seven languages)',
      pattern:
        /\b(nur )?(sporadisch|eingeschrankt|begrenzt|unregelmassig) (per e-?mail |per mail )?erreichbar\b|\bacces (sporadique|ponctuel|intermittent) (a|aux)\b|\bacceso (esporadico|restringido|intermitente) (al|a mi)\b|\bacesso (esporadico|restrito|intermitente) (ao|aos|a)\b|\baccesso (sporadico|saltuario|intermittente) (alla|alle|all')\b|\b(sporadic|intermittent) access\b|\b(auf|in) einer (schulung|fortbildung|weiterbildung)\b|\bje suis en formation\b|\b(estoy|estare) (\w+ ){0,3}en (una|un) (formacion|curso)\b|\b(estou|estarei) (num|em um|numa|em uma) (treinamento|curso)\b|\b(sono|saro) (a|ad|in) un corso\b|\b(zit|ben) (\w+ ){0,3}op (een )?(training|cursus)\b|\bon a training (course)?\b|\battending a (training|course|workshop)\b/,
    },
    {
      label: 'says away until a day, in chat shorthand (seven languages)',
      pattern:
        /\b(on )?(vacay|hols)\b (until|till|til|thru)\b|\bde vacas hasta\b|(^|[.!?]\s*)(fuera|fora|fuori|weg|out|away|afwezig|abwesend|absent|ausente|assente) (hasta|ate|fino|tot|until|till|til|bis|jusqu)\b/,
    },
    {
      label: 'is on the road with clients and hardly online (seven languages)',
      pattern:
        /\b(mostly|largely|mainly|almost always|often) offline\b|\bbarely (online|reachable)\b|\bhardly (online|reachable|at my (desk|computer|laptop))\b|\b(little|no|patchy|limited) (connectivity|signal|internet|wi-?fi)\b|\bon the road (visiting|with|all week|this week|until)\b|\bvisiting (clients|customers) (all|this|until)\b|\b(bei kunden|beruflich|geschaftlich|dienstlich) unterwegs\b|\bkaum (am rechner|erreichbar|online|am computer|am laptop)\b|\ben tournee\b|\bpeu (disponible|joignable)\b|\b(casi )?sin (conexion|cobertura)\b|\bvisitando clientes\b|\b(quase )?sem (conexao|sinal|internet)\b|\bin giro (dai|per|presso) clienti\b|\b(quasi sempre|spesso) offline\b|\bpoco raggiungibile\b|\b(zit|ben) (de hele week|deze week|tot \w+) bij klanten\b|\bnauwelijks (online|bereikbaar)\b|\bslecht bereikbaar\b/,
    },
    {
      label: 'says they have no access to mail, or when they return (seven languages)',
      pattern:
        /\b(no|without) (access|acces) to (my )?e-?mail\b|\bkeinen zugriff auf (meine |die )?(e-?mails?|mails?)\b|\bpas (d'|acces a )(acces a )?(mes |ma )?(mails?|e-?mails?|messagerie|courriels?)\b|\bno (tengo|tendre) acceso (al|a mi) correo\b|\bsem acesso (ao|aos|a) (e-?mails?|emails?|correio)\b|\bsenza accesso (alla posta|alle e?-?mail|all'e-?mail)\b|\bgeen toegang tot (mijn )?(e-?)?mail\b|\b(bin ich|ich bin) (\S+ ){0,3}wieder (fur sie |fur euch |fur dich )?(da|erreichbar|im buro|im hause)\b|\b(volvere|regresare|me reincorporare|retornarei|voltarei|rientrero) (el|al|a la|no|na|em|il|in|lunedi|martedi|mercoledi|giovedi|venerdi|lunes|martes|miercoles|jueves|viernes|segunda|terca|quarta|quinta|sexta|\d)|\bretorno (as atividades|ao escritorio|ao trabalho) (no|em|a|dia)\b/,
    },
    {
      label: 'says they are absent or out until a day (seven languages)',
      pattern:
        /\b((absent|absente|ausente|assente|afwezig|abwesend)|(i'?m|i am|i'?ll be|i will be|estoy|estare|estou|estarei|sono|saro|ik ben|ben ik|ich bin|bin ich|bin|je suis|je serai) (\w+ ){0,2}(away|out|fuera|fora|fuori|weg|er niet|nicht (da|erreichbar|im buro|im hause)))( (de la oficina|do escritorio|dall'ufficio|dell'ufficio|ufficio|sede|kantoor))? (until|till|til|jusqu|hasta|ate|fino|tot|bis)\b/,
    },
    {
      label: 'says when they will be back at work (seven languages)',
      pattern:
        /\b(estare|estarei|saro|ik ben|je serai|je suis|i'?ll be|i will be|bin|ich bin|volto|vuelvo|torno|rientro)\b[^.!?]{0,30}\b(de vuelta|de volta|di (nuovo|ritorno) in ufficio|di ritorno|weer (op kantoor|terug|aanwezig|op de zaak)|de retour|back (in|at|to) (the |my )?(office|desk|work)|wieder (im buro|da|erreichbar|zuruck|im hause))\b/,
    },
    {
      label: 'says they are on sick leave (seven languages)',
      pattern:
        /\bkrankgeschrieben\b|\bkrankheitsbedingt abwesend\b|\barret maladie\b|\b(de )?baja (medica|por enfermedad)\b|\blicenca medica\b|\bde atestado\b|\b(sono )?in malattia\b|\bziek(gemeld| thuis)\b/,
    },
    {
      label: 'opens with an absence in few words (seven languages)',
      pattern:
        /(^|[.!?]\s*)(currently )?((away|off)( on (annual |sick |parental |maternity |paternity )?(leave|holiday|vacation))?|out of (the )?office|ooo|on (annual |sick |parental |maternity |paternity )?(leave|holiday|vacation))\b[,;]? (back|returning|until|till|from|this|next|and)\b|\bna (mijn )?terugkomst\b|\bzodra ik (weer )?terug ben\b|\bbij (mijn )?terugkomst\b/,
    },
    {
      label: 'says, in few words, they are on holiday until a day (seven languages)',
      pattern: new RegExp(`\\b${AWAY_UNTIL}\\b`),
    },
    {
      label: 'is at a trade fair or conference (seven languages)',
      pattern: new RegExp(`\\b${AT_EVENT}`),
    },
    {
      label: 'reads mail only now and then while away (seven languages)',
      pattern: new RegExp(`\\b${LITTLE_MAIL}\\b`),
    },
  ],
  not_interested: [
    {
      label: 'tried something similar and it did not work for them (seven languages)',
      pattern:
        /\b(did ?n'?t|did not) work (out )?for us\b|\bhat (bei uns|fur uns) nicht (funktioniert|geklappt)\b|\b(teste|essaye)[^.!?]{0,40}sans succes\b|\bno nos funciono\b|\bnao funcionou (para nos|pra gente|aqui|conosco)\b|\bnon ha funzionato (per noi|da noi)\b|\bwerkte (niet|niet goed) (voor ons|bij ons)\b/,
    },
    {
      label: 'went another way, has a frozen budget, or will pass (seven languages)',
      pattern:
        /\b(went|gone|going) (in )?(a )?different direction\b|\banders entschieden\b|\b(fait|pris) un autre choix\b|\b(tomamos|tomado|elegimos) otro camino\b|\b(seguimos|tomamos) (por )?outro caminho\b|\bpreso un'?altra strada\b|\bandere (richting|kant) (gekozen|op)\b|\bbudget\w* (is |ist |est |esta |e |wurde )?(frozen|eingefroren|gele|congelado|congelato|bevroren)\b|\b(presupuesto|orcamento) (esta )?congelado\b|\b(have to|must|will|going to) pass\b|\b(muss|mussen) (ich|wir) (leider )?absagen\b|\bje vais (donc )?decliner\b|\b(asi que|entonces|por eso) paso\b|\bvou passar\b|\bquindi passo\b|\bdus (ik|we) pas(sen)?\b/,
    },
    {
      label: 'decided to stay with the current supplier, or it is outside their plans (seven languages)',
      pattern: new RegExp(
        [
          sentenceWith(
            [STAY, CURRENT],
            alt(
              'supplier',
              'provider',
              'vendor',
              'lieferant\\w*',
              'anbieter\\w*',
              'dienstleister\\w*',
              'fournisseur',
              'prestataire',
              'proveedor',
              'fornecedor',
              'fornitore',
              'leverancier',
              'partner',
              'partij',
              'solution',
              'losung',
              'solucion',
              'solucao',
              'soluzione',
              'oplossing',
              'system',
              'systeme',
              'sistema',
              'systeem',
              'tool',
              'outil',
              'herramienta',
              'ferramenta',
              'strumento',
            ),
          ),
          '\\b(outside|not (part of|in)|nicht (teil )?(in|unserer)|ne fait pas partie de|hors de|no (entra|esta|forma parte) (en|de)|nao (esta|faz parte) (nos|dos)|non rientra (nei|nel)|past niet in) (\\w+ ){0,2}(our |unserer |unsere |nos |nuestros |nossos |nostri |onze )?(plans|planning|planung|projets|planes|planos|piani|plannen|roadmap|budget)\\b',
          "\\b(do not|don'?t|cannot|can'?t) see (a|any) (use|need|application|fit)\\b|\\bkeinen (einsatzbereich|nutzen|anwendungsfall|mehrwert)\\b|\\bn'en voyons pas l'utilite\\b|\\bno (le )?vemos (utilidad|sentido|aplicacion)\\b|\\bnao vemos (utilidade|sentido|aplicacao)\\b|\\bnon ne vediamo (l'utilita|il senso|la necessita)\\b|\\b(zien|zie) er (\\w+ ){0,4}geen (toepassing|nut|meerwaarde)\\b",
        ].join('|'),
      ),
    },
    {
      label: 'says a meeting or the rest is not needed (Spanish, Dutch)',
      pattern:
        /\bno (hace|hacen) falta\b|\bgeen (afspraak|meeting|demo|gesprek|call|offerte|informatie|hulp|ondersteuning|software|tool|systeem|oplossing|leverancier) nodig\b/,
    },
    {
      // "Contact me again in autumn" alone is no decline (the older sets read it neutral);
      // with "not now" it is ("not now, try again in Q3").
      label: 'says not now, in a sentence of its own (seven languages)',
      pattern: new RegExp(
        [
          "(^|[.!?;]\\s*)(im moment|momentan|derzeit|aktuell|ahora mismo|en este momento|pour l'instant|pour le moment|neste momento|al momento|op dit moment) (leider )?(nicht|no|pas|nao|non|niet)\\s*([,.!;]|$)",
        ].join('|'),
      ),
    },
    {
      label: 'has no budget for it (more wordings)',
      pattern:
        /\bn'(avons|ai) pas (le |de |du )?budget\b|\bpas le budget\b|\bnao (temos|tenho) (o |um )?orcamento\b|\bnon (abbiamo|ho) (il |un |alcun )?budget\b|\b(haben|habe) (wir |ich )?(dafur |hierfur )?kein(en)? budget\b|\bno budget (for|this)\b|\b(hebben|heb) (we |ik )?(er |daar |hier )?geen budget\b/,
    },
    {
      label: 'is fine with what they have, has no need, or does it internally (seven languages)',
      pattern:
        /\b(we'?re|we are|i'?m|i am) (perfectly |quite )?(fine|good|happy|ok|okay|sorted) with (what we (have|use)|our (current|existing)|the current)\b|\bnao (temos|tenho|ha) (nenhuma )?necessidade\b|\bno (tenemos|tengo|hay) necesidad\b|\bnon (abbiamo|ho|c'e) (la |alcuna )?necessita\b|\b(lo |la |li |le )?(facciamo|gestiamo) (gia |tutto )?(internamente|in casa|da soli)\b|\b(dat |dit )?(doen|regelen) (we|wij) (zelf|intern)\b|\bintern geregeld\b/,
    },
    {
      label: 'is bound by a contract elsewhere (seven languages)',
      pattern:
        /\b(locked|tied) (in|into) (a|our|the) (contract|agreement)\b|\bunder contract (with|until|till)\b|\bvertraglich (noch )?gebunden\b|\bsous contrat (avec|jusqu)\b|\b(tenemos|seguimos con) (un )?contrato (con|hasta)\b|\b(temos|estamos com) (um )?contrato (com|ate)\b|\b(siamo|restiamo) vincolati\b|\bzitten (nog )?vast aan (een|ons) contract\b/,
    },
    {
      label: 'says they are well served already or it is not current (seven languages)',
      pattern:
        /\bsind (da |hier |damit |bereits |schon |sehr |gut )*gut aufgestellt\b|\bpas d'actualite\b|\b((hebben|heb) (we|wij|ik)|(we|wij|ik) (hebben|heb)) (\w+ ){0,5}niet nodig\b|\bhoeven (we|wij) niet\b/,
    },
    {
      label: 'signed with, or works with, another supplier (seven languages)',
      pattern: new RegExp(near(SIGNED, OTHER_SUPPLIER, 8)),
    },
    {
      label: 'says it is not a priority for them (seven languages)',
      pattern: new RegExp(
        [
          "\\b(isn'?t|aren'?t|is not|are not|not) (really )?(a|our) (priority|focus)\\b",
          '\\bkeine prioritat\\b|\\bnicht (unsere )?prioritat\\b',
          "\\bpas (une|notre) priorite\\b|\\bn'est pas (une|notre) priorite\\b",
          '\\bno es (una |nuestra )?prioridad\\b',
          '\\bnao e (uma |nossa )?prioridade\\b',
          '\\bnon e (una |la nostra )?priorita\\b',
          '\\bgeen prioriteit\\b',
        ].join('|'),
      ),
    },
    {
      label: 'says there is no point, or they do it themselves (seven languages)',
      pattern: new RegExp(
        [
          '\\bno point (in|to)\\b',
          '\\b(hat|macht) (also |daher |dann )?keinen sinn\\b|\\bmachen (wir )?(das|es|alles)\\b[^.]{0,30}\\b(selber|selbst)\\b',
          "\\b(ca|cela) n'a (donc )?pas de sens\\b|\\binutile de\\b",
          '\\bnon ha (quindi )?senso\\b',
          '\\b(heeft|het heeft) (dus |daarom )?geen zin\\b|\\bgeen zin om\\b',
        ].join('|'),
      ),
    },
    {
      label: 'says it does not interest them (seven languages)',
      pattern:
        /\bne (nous |m'|m' )interesse(nt)? (pas|plus|guere)\b|\binteressiert (mich|uns) (leider )?(nicht|kein bisschen)\b|\bnao (me|nos) interessa\b|\binteresseert (me|mij|ons) (helaas )?niet\b|\b(doesn'?t|does not) interest (me|us)\b/,
    },
    {
      label: 'says no thanks informally (seven languages)',
      pattern: /^\W*(nee|nah|nope|ne|non|nein),? (danke|dank je|bedankt|merci|thanks)\b/,
    },
  ],
  interested: [
    {
      label: 'asks whether we have material, or how the rollout would go (seven languages)',
      pattern: new RegExp(
        [
          `\\b(do you have|have you got|got any|haben sie|habt ihr|avez-vous|vous avez|teneis|tienen|tienes|voces tem|voce tem|avete|hebben jullie|heeft u|heb je)\\b(?:[^\\w.!?\\n]+[\\w'-]+){0,3}?[^\\w.!?\\n]+${MATERIAL}\\b`,
          `(?:^|(?<=[.!?\\n]))(?=[^.!?\\n]*\\b${IMPLEMENTATION}\\b)[^.!?\\n]*\\b(how|what would|wie|comment|como|come|hoe)\\b`,
        ].join('|'),
      ),
    },
    {
      label: 'would like an offer or quote, or asks for a trial (seven languages)',
      pattern: new RegExp(
        [
          near(
            alt(
              "i'?d like",
              'i would like',
              "we'?d like",
              'we would like',
              'i want',
              'we want',
              'hatte (ich )?gerne?',
              'hatten (wir )?gerne?',
              'mochte',
              'mochten',
              'souhaiterais',
              'souhaiterions',
              'voudrais',
              'voudrions',
              'quisiera',
              'quisieramos',
              'me gustaria',
              'nos gustaria',
              'gostaria de',
              'gostariamos de',
              'queria',
              'vorrei',
              'vorremmo',
              'wil graag',
              'willen graag',
              'zou graag',
              'zouden graag',
            ),
            OFFER,
            3,
          ),
          "\\b(free trial|trial (account|version|period|licen[cs]e)|test ?account|testzugang|testversion|kostenlos (testen|ausprobieren)|(tester|essayer) gratuitement|version d'essai|periodo de prueba|prueba gratuita|probar(lo|la)? gratis|teste gratis|testar (gratis|gratuitamente)|periodo di prova|prova gratuita|provar(lo|la)? gratuitamente|proefperiode|gratis (uit)?proberen|proefaccount)\\b",
        ].join('|'),
      ),
    },
    {
      label: 'asks what it costs, in chat shorthand (seven languages)',
      pattern:
        /\bwhat'?s it cost\b|\bwhats the (price|cost|damage)\b|\bwas kostet'?s\b|\bc'est combien\b|\bcombien (ca|cela) (coute|vaut|fait)\b|\bcuanto (sale|vale|cuesta) (esto|eso)?\b|\bquanto (custa|sai|fica)\b|\bquanto (costa|viene)\b|\bwat kost (dat|het|dit)\b/,
    },
    {
      label:
        'asks for the next steps or a reference customer, or says the approach appeals (seven languages)',
      pattern:
        /\b(next steps?|nachsten schritte|prochaines etapes|siguientes pasos|proximos passos|prossimi passi|volgende stappen?)\b|\b(reference (customer|client)s?|referenzkunden?|referenz aus|reference client|references? clients?|clientes? de referencia|client[ei] di riferimento|referentieklant(en)?|case stud(y|ies))\b|\b(resonates with (us|me)|spricht (uns|mich) an|nous parle|(nos|me) (agrada|convence)|ci convince|spreekt (ons|me|mij) aan)\b|\bwould welcome (a|an|your) (proposal|offer|quote)\b|\buber (ein|eine|ihr|ihre) [\w ]{0,30}(angebot|vorschlag|unterlagen)[\w ]{0,30} freuen\b/,
    },
    {
      label: 'asks for an overview or price indication, verb last (Dutch, German)',
      pattern: new RegExp(
        near(
          OFFER,
          alt(
            'sturen',
            'toesturen',
            'opsturen',
            'mailen',
            'e-?mailen',
            'schicken',
            'senden',
            'zusenden',
            'zukommen lassen',
            'mailen',
          ),
          6,
        ),
      ),
    },
    {
      label: 'accepts informally and asks to hear more (seven languages)',
      pattern:
        /\bdi(tes|s)-(m|nous)'en (plus|davantage)\b|\bme cuadra\b|\bcuent(a|e)me (como funciona|de que va|un poco mas)\b|\b(conta|conte)-me como funciona\b|\braccontami come funziona\b|\bvertel (eens )?hoe het werkt\b|\berzahl(en sie)? (mal )?(mehr|wie das funktioniert)\b/,
    },
    {
      label: 'says it could interest them, or asks to receive an offer (seven languages)',
      pattern: new RegExp(
        [
          "\\b(peut|pourrait|pourraient) (nous |m')interesser\\b|\\b(podria|puede|podrian) interesar(nos|me)?\\b|\\b(nos|me) (podria|puede|podrian) interesar\\b|\\bpotrebbe(ro)? interessar(ci|mi)\\b|\\b(kan|zou|kunnen) (wel |best |zeker )?interessant (zijn|kunnen zijn|wezen)\\b|\\b(could|might|may) (well )?be (interesting|useful|of interest)\\b|\\b(pode|poderia|podem) (nos |me )?interessar\\b|\\bkonnte (fur uns |fur mich )?(interessant|spannend) sein\\b",
          `\\b(we|i) (might|may|could) (actually |really |well )?need (this|that|something like (this|that))\\b`,
          near(
            alt(
              'receive',
              'receber',
              'ricevere',
              'ontvang',
              'ontvangen',
              'recibir',
              'recevoir',
              'erhalten',
              'bekommen',
            ),
            OFFER,
            4,
          ),
        ].join('|'),
      ),
    },
    {
      label: 'says they are looking for just such a solution (seven languages)',
      pattern: new RegExp(
        [
          '\\b(wir )?suchen (gerade |genau |aktuell |derzeit |eigentlich )*(so etwas|sowas|genau das|eine solche|eine losung|einen anbieter)\\b|\\bsteht (bei uns )?(auf der agenda|ganz oben)\\b',
          '\\b(nous )?(cherchons|recherchons) (justement |actuellement |precisement )?(une solution|un outil|un prestataire|ce genre|ce type|quelque chose)\\b',
          '\\b(estamos|estoy) buscando (justo |precisamente |justamente )?(algo (asi|parecido|similar|como esto)|una solucion|un proveedor|una herramienta)\\b',
          '\\b(estamos|estou) (justamente |exatamente )?(procurando|buscando|a procura de) (algo (assim|parecido|do genero|como isso)|uma solucao|um fornecedor|uma ferramenta)\\b',
          '\\b(stiamo|sto) (proprio |giusto )?cercando (proprio |giusto )?(una soluzione|qualcosa (del genere|di simile|cosi)|un fornitore|uno strumento)\\b',
          '\\b(hier|daar) zijn (we|wij) (juist |precies |net |al )?(naar )?op zoek\\b|\\bzijn (we|wij) (juist |net |al )?op zoek naar (zoiets|iets dergelijks|een oplossing)\\b',
        ].join('|'),
      ),
    },
    {
      label: 'asks us to send an offer, prices, a catalogue or samples (seven languages)',
      pattern: new RegExp(near(SEND, OFFER, 5)),
    },
    {
      label: 'says it interests them or asks to be told more (seven languages)',
      pattern: new RegExp(
        [
          "(?<!ne |n')\\b(m'|nous )interesse(nt)?\\b(?! (pas|plus|guere))",
          '(?<!non )\\b(ci|mi) interessa(no)?\\b',
          '\\b(me )?(conta|conte|fala)(-me)? mais\\b|\\bconte-me mais\\b',
          '\\bcuent(a|e)me mas\\b|\\bdime mas\\b',
          '\\b(dimmi|mi dica|raccontami|mi racconti) (di )?piu\\b',
          '\\bvertel (me|ons) (meer|eens meer)\\b',
          '\\b(erzahl|erzahlen sie) (mir|uns) mehr\\b',
          "\\bdites-(m|nous)'en plus\\b|\\bdis-m'en plus\\b",
          '\\b(parece|soa) (bom|otimo|interessante)\\b',
          '\\bdaar hebben (we|wij|ik) (wel )?oren naar\\b',
          '\\b(ist|sind) (fur uns|fur mich)? ?(durchaus|sehr|absolut)? ?relevant\\b(?<!nicht relevant)',
          '\\b(we|i) (could|might|would) (really )?(use|need) (this|that|something like this)\\b',
          "\\b(would|'d) (like|love) to (hear|learn|know|see) more\\b",
          '\\bne avremmo (proprio |davvero )?bisogno\\b|\\bpodria encajar\\b|\\bpourrait (nous )?convenir\\b',
        ].join('|'),
      ),
    },
    {
      label: 'asks what it costs (seven languages)',
      pattern:
        /\bwat kost (dit|dat|het)\b|\bwas kostet (das|es)\b|\bcombien (coute|ca coute|cela coute)\b|\bcuanto (cuesta|costaria|sale)\b|\bquanto (custa|custaria|sai)\b|\bquanto (costa|costerebbe)\b|\bhow much (would|does|is) (it|this|that)\b/,
    },
  ],
};

/**
 * Chat shorthand written out, so the rules read "nn sono io" as "non sono io" and
 * "nao sou eu q cuido" as "nao sou eu que cuido". Only abbreviations that stand for
 * one word in every language they occur in.
 */
export function expandShorthand(folded: string): string {
  return folded
    .replace(/\bnn\b/g, 'non')
    .replace(/\bq\b/g, 'que')
    .replace(/\bpq\b/g, 'porque')
    .replace(/\bvc\b/g, 'voce')
    .replace(/\bpls\b|\bplz\b/g, 'please')
    .replace(/\bthx\b/g, 'thanks')
    .replace(/\ba\.u\.b\.?(?=\s|$)/g, 'aub')
    .replace(/\bs\.v\.p\.?(?=\s|$)/g, 'svp');
}
