import { alt } from './reply-pattern.helpers.js';
import type { ReplyRule } from './reply-rule.types.js';

// Everyday wordings of one reply kind (an automatic absence notice), split out of
// reply-kinds-everyday.rules.ts; the rules keep the order they had there.
// Vocabulary lists per language over folded text, as described there.

// --- absence in few words, at an event, or with little access to mail ---------------
const AWAY_UNTIL = alt(
  '(?:on|back from) (?:holiday|vacation|leave|pto)s? (?:until|till|til|through|thru)',
  'out of (?:the )?office (?:until|till|til|through)',
  '(?:im )?urlaub bis',
  'in (?:den )?ferien bis',
  'en (?:conges?|vacances) (?:jusqu|au)',
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

// Between a noun and its verb: no sentence end, but the dots of a date ("vom 23.12.2026
// bis 03.01.2027 geschlossen") are no sentence end.
const GAP = '(?:[^.!?]|\\.(?=\\d))';

// "The shop was closed yesterday because of the strike" reports the past, not an absence
// now: a past-tense verb or "yesterday" before the match's end or after it, in the sentence.
const PAST =
  '(was|were|had been|war|waren|etait|etaient|a ete|estuvo|estuvieron|estaba|esteve|estava|era|erano|e stato|e stata|yesterday|gestern|hier|ayer|ontem|ieri|gisteren)';
const NOT_PAST = `(?<!\\b${PAST}\\b[^.!?\\n]*)(?![^.!?\\n]*\\b${PAST}\\b)`;

// "Is your office closed in August?" asks about someone else's office: a second-person
// possessive before the noun is never the writer's own closure notice.
const NOT_YOURS =
  '(?<!\\b(your|ihr|ihre|euer|eure|votre|vos|vuestr[oa]s?|su|sus|seu|sua|vosso|vossa|vostr[oa]|vostri|tuo|tua|jullie|uw|je) )';

/** The everyday `out_of_office` rules, in order (see reply-kinds-everyday.rules.ts). */
export const EVERYDAY_OUT_OF_OFFICE_RULES: readonly ReplyRule[] = [
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

  // A business closed for a period (holidays, a summer shutdown, a public holiday) is an
  // absence of everyone at once: the notice is automatic, and the people come back. A
  // question ("is your office closed in August?") is not a notice (NOT_YOURS, and no "?").
  {
    label: 'says the office or the company is closed for a period (seven languages)',
    pattern: new RegExp(
      [
        `\\b(our |the )?(office|offices|company|shop|store|practice|studio|agency|firm|clinic|warehouse)\\b${GAP}{0,60}\\b(is|are|will be|remains?|will remain|stays?) (closed|shut)\\b`,
        '\\b(whole|entire) team is (off|away|on (holiday|vacation|leave))\\b|\\bclosed (for|over) the (holidays?|christmas|summer)\\b|\\b(summer|winter|christmas|holiday) (shutdown|closure)\\b',
        `\\b(buro|buros|praxis|unternehmen|firma|kanzlei|geschaft|betrieb|laden|lager|team|wir)\\b${GAP}{0,60}\\b(geschlossen|nicht besetzt)\\b|\\bbetriebs(ferien|urlaub)\\b`,
        `\\b(bureaux?|agence|cabinet|societe|entreprise|magasin|boutique|etude|equipe|standard)\\b${GAP}{0,60}\\bfermee?s?\\b|\\bfermeture (annuelle|estivale|exceptionnelle|pour conges)\\b`,
        `\\b(oficinas?|empresa|tienda|despacho|clinica|almacen|nave|equipo)\\b${GAP}{0,60}\\b(cerrad[oa]s?)\\b|\\bcierre (por vacaciones|estival|de verano|por festivo)\\b`,
        `\\b(escritorios?|empresa|loja|clinica|armazem|equipe|equipa)\\b${GAP}{0,60}\\b(fechad[oa]s?|encerrad[oa]s?|em recesso)\\b|\\bferias coletivas\\b|\\brecesso (de fim de ano|de natal|coletivo)\\b`,
        `\\b(ufficio|uffici|studio|azienda|negozio|sede|magazzino)\\b${GAP}{0,60}\\bchius[oaie]\\b|\\bchiusi per (ferie|festivita|le feste)\\b|\\bchiusura (estiva|aziendale|per ferie|natalizia)\\b|\\bpausa estiva\\b`,
        `\\b(kantoor|kantoren|bedrijf|winkel|praktijk|zaak|magazijn|wij|we)\\b${GAP}{0,60}\\bgesloten\\b|\\bbouwvak\\b`,
      ]
        .map((words) => `${NOT_YOURS}(?:${words})(?![^.!?\\n]*\\?)${NOT_PAST}`)
        .join('|'),
    ),
  },

  {
    label:
      'says they are on holiday, travelling or on a course, and when they return (Portuguese, Italian, Dutch)',
    pattern:
      /\b(estou|estarei) (numa|em|num) (formacao|curso|viagem)\b|\bregresso (na|no|a|em|dia) \w+|\b(sono|saro|siamo) in (vacanza|ferie)\b|\brientro (lunedi|martedi|mercoledi|giovedi|venerdi|domani|il \d|in ufficio)\b|\b(ben|zijn) (ik |we )?op reis\b|\bik volg een (training|cursus|opleiding)\b|\bben\b[^.!?]{0,30}\bweer (op kantoor|terug|aanwezig)\b|\blees (ik )?(mijn )?(e-?)?mail (slechts|maar|alleen) (af en toe|sporadisch|beperkt)\b/,
  },

  {
    label: 'says, formally, they are not at the office and without mail until a day (Portuguese)',
    pattern: /\bnao me encontro no escritorio\b|\bnao terei acesso ao (e-?mail|correio)\b/,
  },
];
