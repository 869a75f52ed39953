import { alt, near, sentenceWith } from './reply-pattern.helpers.js';
import type { ReplyRule } from './reply-rule.types.js';

// Everyday wordings of one reply kind (a decline), split out of
// reply-kinds-everyday.rules.ts; the rules keep the order they had there.
// Vocabulary lists per language over folded text, as described there.

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

/** The everyday `not_interested` rules, in order (see reply-kinds-everyday.rules.ts). */
export const EVERYDAY_NOT_INTERESTED_RULES: readonly ReplyRule[] = [
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
];
