import { KIND_RULES } from './reply-kinds.rules.js';
import { EVERYDAY_KIND_RULES } from './reply-kinds-everyday.rules.js';
import { MORE_KIND_RULES } from './reply-kinds-more.rules.js';
import { LEXICON_RULES } from './reply-lexicon.rules.js';
import { MORE_LANGUAGE_RULES } from './reply-more-languages.rules.js';
import type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

export type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

/**
 * Phrase rules per group, in English, German, French and Spanish. Patterns are
 * written without accents because the text is folded first (see foldText).
 * Each rule is a phrase a person or an autoresponder actually writes; single
 * ambiguous words ("stop", "yes") only count when they are the whole reply.
 */
const PHRASE_RULES: Readonly<Record<ReplyRuleGroup, readonly ReplyRule[]>> = {
  unsubscribe: [
    { label: 'asks to unsubscribe', pattern: /\bunsubscribe?\b|\bunsub\b|\bopt(-| )?(me )?out\b/ },
    {
      label: 'asks to be removed from the list',
      pattern:
        /\bremove (me|us|my (e-?mail|email address|address|name|details|contact)|this (e-?mail|address))\b|\btake (me|us|my (e-?mail|address|name)) off\b|\b(off|from) (your|the|all (your|of your)) (mailing |email |e-mail |distribution |contact |marketing )?(list|lists|database|cadence|sequence)s?\b/,
    },
    {
      label: 'asks to stop the emails',
      pattern:
        /\bstop (e-?mailing|mailing|sending|contacting|writing|spamming|messaging|reaching out|following up|bugging|pestering)\b|\b(do not|don'?t|never) (e-?mail|contact|write to|message|send|spam|reach out to) (me|us|this (address|email))\b|\bno (more|further) (e-?mails|emails|messages|contact|follow-?ups)\b|\b(i|we) (do not|don'?t) want (to receive|to get|any more|any further|more) (e-?mails|emails|messages|these)?|\bcease (all )?(contact|communication|emailing)\b|\bdelete (my|all my|our) (data|details|contact|information|personal data|e-?mail)\b|\berase my (data|personal data|details)\b|\b(be |get |been )?removed (me |us )?from (your|all|any|the|future|further)\b|\bno longer (wish|want) to (receive|hear|be contacted|get)\b|\breport(ing)? (you|this|these|it) (as|for) spam\b|\b(leave (me|us)|lassen sie (mich|uns)|lass (mich|uns)|laissez[- ](moi|nous)|dejen(me|nos)?|dejadme) (bitte |en )?(alone|in ruhe|tranquilles?|en paz|tranquil[oa]s?)\b|^stop (aux|a|the|les|los|all|these|those|emails?|e-mails?|mails?|sending|messages|relances|envois|correos)\b/,
    },
    {
      label: 'answers only "stop" or "remove"',
      pattern:
        /^(stop|stopp|remove|unsubscribe|stop!+|remove me|please remove|pls remove|stop please|please stop|baja|de baja|desinscription|abmelden|austragen)[.!]*$/,
    },
    {
      label: 'asks to unsubscribe (German)',
      pattern:
        /\b(abmelden|abbestellen|austragen|abmeldung)\b|\b(aus|von) (ihrem|eurem|dem|ihrer|eurer|der) (e-?mail-?)?(verteiler|liste|mailingliste|newsletter|datenbank)\b|\bkeine (weiteren |werbe-?)?(e-?mails|mails|nachrichten|werbung|zusendungen|kontaktaufnahmen?)( mehr)?\b|\b(kontaktieren|anschreiben|schreiben|mailen) sie (mich|mir|uns) (bitte )?(nicht|nie) mehr\b|\bnicht mehr (kontaktieren|anschreiben|anmailen|schreiben)\b|\bloschen sie (bitte )?(meine|alle meine|unsere) (daten|adresse|e-?mail|kontaktdaten)\b|\b(meine|unsere) (daten|adresse|kontaktdaten) (bitte )?(loschen|entfernen)\b|\bwiderspreche\b|\bunterlassen sie\b|\bnicht mehr (angeschrieben|kontaktiert|angemailt|angerufen|beworben) (werden|zu werden)\b|\b(bitte um|verlange|fordere|beantrage) (die )?loschung\b/,
    },
    {
      label: 'asks to unsubscribe (French)',
      pattern:
        /\bdes-?inscri(re|vez|ption|s|t|bez)\b|\bdesabonn(er|ez|ement)\b|\bretirez[- ]moi\b|\bme (retirer|desinscrire|supprimer|enlever|desabonner)\b|\b(retire[rz]?|supprime[rz]?|enleve[rz]?|sortir|sortez)[- ]?(moi|nous)? (de|des) (votre|vos|la|cette|ces) (liste|listes|fichiers?|base|bases)\b|\bretirer (mon adresse|mon e-?mail|moi|mes coordonnees)\b|\bsupprime[rz]?[- ](moi|mon adresse|mon e-?mail|mes (donnees|coordonnees))\b|\bne (plus )?(m'|me )?(envoyez|contactez|ecrivez|sollicitez|relancez)( plus)?\b|\bne plus (recevoir|etre (contacte|sollicite)e?|(m'|me |nous )?(ecrire|contacter|envoyer|solliciter|relancer))\b|\bne (veux|souhaite|desire|voulons|souhaitons|desirons) (plus|pas) (recevoir|etre (re)?contacte|etre sollicite)|\barrete[rz] de (m'|me |nous )(envoyer|ecrire|contacter|solliciter|relancer)\b|\bmerci de ne plus\b|\bplus (de|aucun) (mails?|messages?|e-?mails?|relances?)\b/,
    },
    {
      label: 'asks to unsubscribe (Spanish)',
      pattern:
        /\b(dar(me|nos)?|darse|den(me)?) de baja\b|\bbaja de (la|su|sus|vuestra|esta) (lista|base de datos|listas)\b|\b(eliminar|eliminen|eliminad|borren|borrar|quitar|quiten|saquen|sacar|retiren|retirar)(me|nos)? (de (la|su|sus|vuestra|vuestras|esta|esa) (lista|listas|base de datos|bbdd)|mi (correo|direccion|email|e-?mail|datos))\b|\bno (me|nos) (vuelvan a |vuelva a )?(envien|envie|mande|manden|escriban|escriba|contacten|contacte)( mas)?\b|\bdej(en|e|ad) de (enviar(me)?|escribir(me)?|contactar(me)?|mandar(me)?)\b|\bno (quiero|queremos|deseo|deseamos) recibir\b|\bcancelar (la |mi )?suscripcion\b|\bdesuscribir(me)?\b|\bdesuscribanme\b|\b(solicito|pido|quiero|queremos|solicitamos|tramiten) (la|mi) baja\b|(?<!\b(ahora|ahorita|todavia|aun|por ahora|de momento|hoy|este ano|este mes|por el momento) )\bno (vuelvan|vuelva|volvais) a (escribir|contactar|enviar|mandar)(me|nos)?\b|\bno (deseo|quiero|deseamos|queremos) que (me|nos) (contacten|escriban|envien)\b/,
    },
  ],

  left_company: [
    {
      label: 'the person has left the company',
      pattern:
        /\b(is|are|am) no longer (with|at|employed|working|part of)\b|\b(has|have) (now )?left (the company|the organi[sz]ation|the firm|the business|our company)\b|\bno longer (works?|employed) (at|for|with|here)\b|\bthis (mailbox|email address|address|inbox) (is )?no longer (monitored|active|in use|checked)\b|\bnicht mehr (fur|bei|im unternehmen|in unserem unternehmen|in der firma|im hause) (tatig|beschaftigt)\b|\b(habe|hat|haben) (das unternehmen|unser unternehmen|die firma|uns)\b.{0,25}\bverlassen\b|\b(ist|arbeitet) nicht mehr (bei|im|fur|in)\b|\b(ne fait plus partie|n'est plus (chez|dans|en poste|employe)|(a|ai) quitte (l'entreprise|la societe|notre societe|le groupe))\b|\bne travaille plus (chez|pour|dans|a)\b|\bya no (trabaja|forma parte|esta) (en|con|para|de)\b|\b(deje|dejo|ha dejado|he dejado) (la empresa|la compania|de trabajar)\b/,
    },
  ],

  out_of_office: [
    {
      label: 'says they are out of the office',
      pattern:
        /\b(i am|i'm|i will be|i'll be|im) (currently |now |presently )?(out of (the )?office|ooo|away|on (annual |parental |maternity |paternity |sick |medical )?(leave|vacation|holiday|holidays|pto|sabbatical)|traveling|travelling|on a business trip|at a conference|off (work|sick))\b|\bout of (the )?office (until|till|from|through|and|with|on|returning)\b|\bwith (limited|no|restricted|intermittent) (access to|email access)\b|\b(will|shall) (respond|reply|get back to you|answer) (to your (email|message) )?(when|upon|on|after) (my|i) (return|get back|am back)\b|\bautomatic reply\b|\bauto-?reply\b|\bcurrently out\b|\bthank you for your (email|message)[.,]? i am (currently )?(out|away|on)\b/,
    },
    {
      label: 'says they are out of the office (German)',
      pattern:
        /\b(ich )?(bin|befinde mich|ist|sind) (derzeit |zurzeit |zur zeit |aktuell |bis (zum |einschliesslich )?\S+ )?(nicht im (buro|hause|haus|office)|abwesend|im urlaub|in (elternzeit|mutterschutz|urlaub)|auf (geschaftsreise|dienstreise|reisen)|ausser haus|krank|nicht erreichbar|nicht (am|im) arbeitsplatz)\b|\b(abwesenheitsnotiz|abwesenheit)\b|\b(e-?mails|nachrichten) werden (nicht )?(weitergeleitet|gelesen)\b|\bnach meiner ruckkehr\b|\bwieder (im buro|erreichbar|zuruck)\b/,
    },
    {
      label: 'says they are out of the office (French)',
      pattern:
        /\bje (suis|serai) (actuellement |en ce moment )?(absente?|en (conges?|vacances|deplacement|conge (maternite|parental|maladie))|hors du bureau|en arret)\b|\b(absente?) (du bureau |jusqu'au|a partir|du \d|pour)\b|\bde retour (le|au bureau|a partir)\b|\bdes mon retour\b|\ba mon retour\b|\breponse automatique\b|\bacces (limite|restreint) (a mes|aux) (e-?mails|mails|messages)\b/,
    },
    {
      label: 'says they are out of the office (Spanish)',
      pattern:
        /\b(estoy|estare|me encuentro) (actualmente |de momento )?(fuera de la oficina|fuera de oficina|de vacaciones|de viaje|ausente|de baja|con acceso limitado|de permiso|fuera)\b|\bfuera de la oficina\b|\b(a|tras) mi (regreso|vuelta)\b|\bcuando (regrese|vuelva)\b|\brespuesta automatica\b|\bacceso limitado (al|a mi) correo\b/,
    },
  ],

  wrong_person: [
    {
      label: 'says they are the wrong person',
      pattern:
        /\b(wrong|not the (right|correct|best|appropriate|relevant)) (person|contact|guy|one|department|team|address)\b|\b(i am|i'm|im) not (the one who|responsible for|in charge of|involved in|the decision|the person|the right)\b|\bnot my (area|department|responsibility|call|decision|remit)\b|\b(i|we) (don'?t|do not) (handle|deal with|look after|manage|own|make decisions (on|about))\b|\b(he|she|they) (handles?|owns?|manages?|runs?|looks? after|is responsible|are responsible|is in charge|takes care of|makes? (those|the|that) decisions?|would be (the|a) (right|best|better|correct))\b|\b(is|would be) (the|a) (right|best|better|correct|appropriate|relevant) (person|contact|one) (to|for)\b|\b(you should|you'll want to|you may want to|you might want to|better to|best to|please|i'd suggest you|i suggest you|try) (talk|speak|reach out|write|get in touch|contact|email|connect)( to| with)?\b.{0,60}\b(instead|rather|who (handles|is responsible|owns|manages|runs))\b|\binstead\b.{0,20}\b(contact|reach out|talk|speak|email)\b|\bnot the decision[- ]?maker\b|^not me\b|\btry (reaching out to |contacting |emailing )?(our|my) \w+|\b(i'?ve|i have|i) (moved|switched|transferred) (to|into) (a different|another|the|our)\b|\bno longer (work|working) (in|on)\b|\b(successor|took over (his|her|their|the|my) (role|position|job|accounts?|responsibilities))\b|\b(you'?re|you are) (probably )?looking for (someone|my colleague)\b|\b(better|best) (directed|addressed|sent) to\b|\b(this|that|it) (isn'?t|is not) (really )?(for me|my (area|department|call|remit))\b|\btry \w+ (\w+ )?(in|from|on) (sales|marketing|ops|operations|revops|it|finance|procurement|purchasing|hr)\b|\b(i'?ve|i have|i) (forwarded|passed|copied|cc'?d|looped in|passed on)\b.{0,60}\b(colleague|team|to the right|to \w+ who|head of|manager|director)\b/,
    },
    {
      label: 'says they are the wrong person (German)',
      pattern:
        /\b(falsche[rn]?|nicht (der|die) richtige|nicht der passende|nicht die passende) (ansprechpartner(in)?|person|adresse|stelle|kontakt)\b|\bnicht zustandig\b|\bzustandig (ist|dafur ist|ware|sind)\b|\b(wenden|melden) sie sich (bitte |gerne )?(an|bei)\b|\b(kummert|kummern) sich\b|\bweitergeleitet\b|\bansprechpartner(in)? (ist|ware|dafur)\b|\bsprechen sie (besser |lieber )?mit\b|\bnachfolger(in)?\b|\bzustandig\b|\bnicht (der|die) entscheider(in)?\b/,
    },
    {
      label: 'says they are the wrong person (French)',
      pattern:
        /\bpas (la bonne|le bon) (personne|interlocuteur|interlocutrice|contact|service)\b|\bne suis pas (en charge|responsable|le bon|la bonne|concernee?|decisionnaire|la personne)\b|\b(adressez|adresser)[- ]vous a\b|\b(il|elle) (s'occupe|est en charge|gere|est responsable|est la personne)\b|\bvoir (plutot )?avec\b|\b(contactez|contacter|ecrivez a|ecrire a) (plutot )?(mon|ma|notre|mes)\b|\btransfere (votre|ce|le) (message|mail|e-?mail)\b|\bplutot (contacter|voir avec|vous adresser)\b|\bce n'est pas (moi|mon domaine|de mon ressort)\b|\bsuccesseur\b|\bvous cherchez (plutot )?(quelqu'un|mon|ma)\b|\bessayez (plutot )?(aupres de |avec )?\w|\bpas (le|la) decisionnaire\b/,
    },
    {
      label: 'says they are the wrong person (Spanish)',
      pattern:
        /\bno soy (la persona|el|la) (adecuada|indicada|correcta|responsable|encargad[oa]|adecuado|indicado|correcto)\b|\bpersona (equivocada|incorrecta)\b|\bno (me corresponde|es mi area|llevo (yo )?ese tema)\b|\b(contacte|contacta|contactar|hable|habla|hablar|escriba|escribe|escribir|dirijase|dirigete|dirigirse)( directamente| mejor)? (con|a) (mi |nuestr[oa] |el |la )?(compa(n|ñ)er[oa]|colega|responsable|director[a]?|jef[ea]|departamento|equipo)\b|\b(el|ella) (se encarga|es (el|la) (responsable|encargad[oa]|persona)|lleva (ese|este) tema)\b|\b(he|le he|te he) (reenviado|pasado|copiado)\b|\bno tomo (estas|esas|las|este tipo de) decisiones\b|\b(le|te) (paso|reenvio) (su|tu|el|este) (correo|mensaje|email)\b|\b(sustitut[oa]|reemplazo)\b|\bequivocad[oa] de (persona|contacto|direccion|destinatario)\b|\besto lo (lleva|gestiona|ve|decide)\b/,
    },
  ],

  not_interested: [
    {
      label: 'declines',
      pattern:
        /^(no|nope|pass|no,? thanks?|not now)[.!]*$|\bnot (really |currently |at all )?interested\b|\bno interest\b|\bno,? thank(s| you)\b|\bno thx\b|\bthanks,? but no\b|\bnot (a |the )?(good |right )?(fit|priority|match) (for us|right now|at the moment|at this time)\b|\bnot for us\b|\b(we are|we're|i am|i'm|we) (all set|good for now|covered|happy with (our|what)|not looking|not in the market)\b|\b(we|i) (already )?(have|use|work with) (a|an|our own|another|one|something) .{0,30}\b(already|in place|that works|we like|we're happy|we are happy)\b|\b(we|i) already (have|use|work with|partner with)\b|\b(we|i) (don'?t|do not) (need|have a need for|require)\b|\bno need\b|\b(not|no) (at|for) (this|the moment|now)\b|\bnot (right )?now\b|\b(we|i)'?ll pass\b(?! (it|this|that|them|your|on|along|around))|\bpass on this\b|\bno budget\b|\b(isn'?t|is not|not) (really )?relevant\b|\b(isn'?t|is not|not) something (we|i)\b|\b(it'?s|that'?s) a (no|pass|hard no)\b|\b(we|i) (don'?t|do not) have (this|that|the|a|any) (problem|issue|need|pain)\b|\b(rather not|don'?t want to) waste your time\b|\b(other|different) priorities\b|\b(doesn'?t|does not|wouldn'?t) make sense for us\b|\b(politely )?decline\b|\bnot what (we'?re|we are|i'?m|i am) looking for\b|\bno (bandwidth|capacity) (for|to)\b|\bnot a good time\b|\b(chose|picked|went with|selected) (another|a different) (vendor|provider|solution|tool)\b|\bnot a priority\b|\bnot (looking|planning) (for|to)\b/,
    },
    {
      label: 'declines (German)',
      pattern:
        /\bkein(en)? (interesse|bedarf)\b|\bnicht interessiert\b|\bnein,? danke\b|\bdanke,? (aber )?nein\b|\bbrauchen wir nicht\b|\b(benotigen|brauchen) (wir|ich) (derzeit |aktuell |momentan )?(nicht|keine?n?)\b|\b(wir )?haben (bereits|schon) (einen|eine|ein)?\b|\bsind (bereits |schon )?(gut )?versorgt\b|\b(derzeit|aktuell|momentan|zurzeit) (kein|nicht)\b|\bpasst\b.{0,25}\bnicht\b|\b(brauchen|benotigen) (wir|ich)\b.{0,20}\bnicht\b|\b(wir|ich) (brauchen|benotigen)\b.{0,20}\bnicht\b|\bandere(n)? prioritaten\b|\bmit einem anderen (anbieter|dienstleister|partner)\b|\bkeinen wechsel\b|\b(anbieter|losung|partner|tool|system|dienstleister)\b.{0,30}\bzufrieden\b|\bzufrieden mit\b|\bnicht das,? was wir (suchen|brauchen)\b|\bmacht (fur uns )?keinen sinn\b|\bkein thema\b|\bnicht relevant\b/,
    },
    {
      label: 'declines (French)',
      pattern:
        /\bpas (du tout |vraiment )?interesse(e|s|es)?\b|\bpas d'interet\b|\bnon,? merci\b|\b(ne|n') (sommes|suis) pas interesse(e|s|es)?\b|\bpas (de |le )?besoin\b|\b(nous|on) (avons|a) deja\b|\bdeja (equipe(e|s)?|un (prestataire|fournisseur|outil|partenaire))\b|\bpas (pour (nous|le moment|l'instant|l'heure|maintenant)|le moment|maintenant)\b|\b(travaillons|travaille) deja avec\b|\b(je|nous) declin(e|ons)\b|\bd'autres priorites\b|\bn'a pas de sens\b|\bpas (l'utilite|d'utilite|l'usage)\b|\b(sommes|suis) (tres )?satisfaits? (de|avec)\b|\bce n'est pas ce que nous cherchons\b|\bpas une priorite\b|\bne (nous|m') interesse pas\b|\bce n'est pas (pertinent|le moment)\b/,
    },
    {
      label: 'declines (Spanish)',
      pattern:
        /\bno (me|nos) interesa\b|\bno (estoy|estamos) interesad[oa]s?\b|\bno,? gracias\b|\bno (necesitamos|necesito)\b|\bya (tenemos|contamos con|trabajamos con|usamos|utilizamos)\b|\bno es (el momento|prioridad|una prioridad|para nosotros|relevante)\b|\b(por|de) (ahora|momento) no\b|\bsin interes\b|\b(vamos|voy) a pasar\b|\bno tiene sentido\b|\botras prioridades\b|\bno es lo que (buscamos|necesitamos|busco|necesito)\b|\b(estamos|estoy) (muy )?content[oa]s? con\b/,
    },
  ],

  interested: [
    {
      label: 'shows interest',
      pattern:
        /\b(i am|i'm|we are|we're|would be|i'd be|we'd be|definitely|very|quite|could be|might be|be) interested\b|\binterested in (learning|hearing|seeing|a (call|demo|chat))\b|\bsounds (good|great|interesting|promising|intriguing)\b|\btell me more\b|\b(send|share|forward) (me |us |over )?(some |more |a few )?(info|information|details|deck|pricing|prices|case stud(y|ies)|materials?|a proposal|a quote)\b|\b(let'?s|lets|happy to|glad to|open to|would love to|keen to|i'd like to|we'd like to|love to) (talk|chat|connect|jump on|hop on|set up|schedule|meet|learn more|discuss|find a time|book)\b|\bbook (a|some) (call|meeting|time|demo|slot)\b|\b(what|when) (is|are|would) (your|you) (availability|free|available|be available)\b|\b(are you|i am|i'm|we're|we are) (free|available) (on|next|this|tomorrow|monday|tuesday|wednesday|thursday|friday)\b|\bcalendly\b|\bhow much (does|is|would)\b|\bwhat (does|would) (it|this|that) cost\b|\b(schedule|set up|arrange) a (call|demo|meeting|quick call|chat)\b|\b(send|share) (me |us )?(a |an )?(calendar|invite|meeting invite)\b|\b(give me|send me) a (call|ring)\b|\bworth a (chat|conversation|call|look)\b|\b(we are|we're|i am|i'm) (currently )?(looking|exploring|evaluating|considering)\b|\bcurious to (learn|hear|see)\b|\b(send|share|forward)( me| us| over)?( the| your| a| an| some| more| a few| any)?( [\w-]+){0,2} (info|information|details|deck|pricing|prices|case stud(y|ies)|materials?|proposal|quote|one-?pager|brochure|presentation|demo)\b|\bsend (over |me |us )?(some|a few|a couple of|your) (times|slots|dates)\b|\btimes? that (work|suit)s?\b|\b(what|how) (does|is|would) (the |your )?pric(e|ing)\b|\bbook (something|a time|time|a slot)\b|\b(good|great|perfect) timing\b|\btiming is (good|great|right|perfect)\b|\b(\d+ ?(min|mins|minutes)|call|chat|meeting|that time) works\b|\bcan we (do|have|set up|schedule|book|jump on|hop on|get) a (call|chat|meeting|demo)\b|\bwhat'?s your availability\b|\b(open to|up for) a (quick |short )?(call|chat|conversation|demo|meeting)\b|\b(this is|very) timely\b|\bballpark\b|\b(share|send)\b.{0,30}\b(overview|proposal|pricing)\b|^(yep|yes|yeah|ok|okay|sure),? (i'?m |we'?re |we are |i am )?interested\b|^interested\b|\b(on|in) my calendar\b|\b(might|could|may) be a (good )?fit\b|\b(like|love|want) to see a demo\b|\bsee a demo\b|\b(count me|i'?m) in\b(?! ?[\w-])|\bset it up\b/,
    },
    {
      label: 'shows interest (German)',
      pattern:
        /\b(bin|sind|waren|ware|waere) (sehr |durchaus |grundsatzlich )?interessiert\b|\bklingt (gut|interessant|spannend|vielversprechend)\b|\b(gerne?|gern) (mehr|ein|einen|eine|telefonieren|sprechen|austauschen|naher)\b|\b(termin|telefonat|gesprach|call|austausch|demo)\b.{0,20}\b(vereinbaren|ausmachen|machen|finden|einplanen)\b|\b(schicken|senden) sie (mir |uns )?(gerne |bitte )?(mehr |weitere )?(infos|informationen|unterlagen|details|preise|ein angebot)\b|\bwann (haben sie zeit|passt es|konnen wir|hatten sie)\b|\brufen sie (mich|uns)\b.{0,20}\ban\b|\bterminvorschlag|\bgerne? (konnen|sollten|wurden) wir\b|\b(grundsatzlich|durchaus) interessiert\b|\b(hatte|habe|haben|hatten) (grosses |durchaus |grundsatzlich )?interesse\b|\bmehr erfahren\b|\bwas kostet\b/,
    },
    {
      label: 'shows interest (French)',
      pattern:
        /\b(je suis|nous sommes|serais|serions) (tres |plutot )?interesse(e|s|es)?\b|\bca (m'|nous )interesse\b|\bcela (m'|nous )interesse\b|\bvolontiers\b|\b(prenons|fixons|caler|calons|planifier|planifions|organiser|organisons) (un |une )?(rendez-vous|rdv|appel|call|creneau|echange|demo|point)\b|\b(envoyez|envoyer)[- ]?(moi|nous)? (plus d'|davantage d'|des |la |une )?(infos|informations|details|documentation|tarifs|plaquette|presentation|proposition)\b|\bquelles sont vos disponibilites\b|\b(ca|cela) (semble|a l'air) interessant\b|\ben savoir plus\b|\b(ravie?|heureux|heureuse) d'(echanger|en discuter|en parler)\b|\benvoyez[- ](moi|nous) une invitation\b|\bavec plaisir\b|\bcreneaux?\b|\bproposition (tarifaire|commerciale)\b|\bdevis\b|\bm'envoyer\b.{0,30}\b(demo|presentation|proposition|tarifs|devis|documentation)\b|\b(echangeons|parlons-en|discutons-en)\b|\bcombien (ca|cela) coute\b/,
    },
    {
      label: 'shows interest (Spanish)',
      pattern:
        /(?<!no )\b(me|nos) interesa(ria)?\b|\b(estoy|estamos|estaria|estariamos) (muy )?interesad[oa]s?\b|\b(agendar|agendemos|programar|programemos|coordinar|coordinemos|organizar|tener) (una )?(llamada|reunion|demo|cita|videollamada)\b|\b(enviame|envieme|mandame|mandeme|mandenme|envienme|enviar|compartir|comparta|comparte)(nos)? (mas )?(informacion|info|detalles|precios|una propuesta|la presentacion)\b|\b(cuando|que dia) (tienes|tiene|tendrias|tendria) (disponibilidad|tiempo|un hueco)\b|\bsuena (bien|interesante)\b|\bme gustaria (saber|conocer|ver|hablar|tener)\b|\bcon gusto\b|\bcuanto (cuesta|cuestan|vale|costaria)\b|\bhablemos\b|\bestamos evaluando\b|\b(nos|me) encaja\b|\bver una demo\b|\bpodemos (ver|tener|agendar|hablar|hacer)\b|\b(envien|envie|mande|manden)(me|nos) (una|la|el) (propuesta|presupuesto|demo|presentacion)\b/,
    },
    {
      label: 'answers yes',
      pattern:
        /^(yes|yes please|sure|absolutely|ja|ja gerne|gerne|oui|oui volontiers|si|si claro|claro|por supuesto|d'accord|ok,? let'?s (talk|do it))[.!]*$|^(yes|ja|oui|si),? (gerne|please|volontiers|claro|con gusto|sure|absolutely|let'?s)\b|^let'?s do it\b/,
    },
  ],

  bounce_notice: [
    {
      label: 'text of a delivery failure notice',
      pattern:
        /\b(delivery to the following recipients? (failed|has been delayed)|the following (address|recipient)\(?e?s?\)? (failed|had permanent fatal errors)|(your )?message (could not|couldn'?t|wasn'?t|was not) (be )?delivered|could not be delivered to one or more|undeliverable|mail delivery (failed|subsystem|system)|delivery has failed to these recipients|returned mail|permanent fatal errors|unzustellbar|konnte nicht (zugestellt|ausgeliefert) werden|zustellung (ist )?fehlgeschlagen|n'a pas pu etre (remis|distribue|delivre)|non remis|no se (ha )?pudo entregar|no pudo ser entregado|no se ha podido entregar|entrega fallida|nao (foi possivel|pode ser) entregue?|falha na entrega|non (e stato|puo essere) (recapitato|consegnato)|consegna non riuscita|kon niet worden (afgeleverd|bezorgd)|kan niet worden bezorgd|aflevering mislukt|no (hemos|he) podido entregar|no fue posible entregar|nao foi possivel entregar|nao (conseguimos|pudemos) entregar|non (e stato possibile|siamo riusciti a) (consegnare|recapitare)|nous n'avons pas pu (remettre|distribuer|delivrer)|impossible de (remettre|distribuer|delivrer) (votre|le) message|wir konnten ihre nachricht nicht zustellen|(we )?konden (uw|je) bericht niet (afleveren|bezorgen)|(we were unable|we could not|we couldn'?t) (to )?deliver (your|the) message)\b/,
    },
  ],
};

/**
 * Phrase rules first, then the word-family rules of the same group (see
 * reply-lexicon.rules.ts), which catch the wordings no phrase list foresaw.
 */
export const REPLY_RULES: Readonly<Record<ReplyRuleGroup, readonly ReplyRule[]>> = mergeRules();

function mergeRules(): Record<ReplyRuleGroup, readonly ReplyRule[]> {
  const merged = { ...PHRASE_RULES };
  for (const group of Object.keys(merged) as ReplyRuleGroup[]) {
    merged[group] = [
      ...PHRASE_RULES[group],
      ...(MORE_LANGUAGE_RULES[group] ?? []),
      ...(KIND_RULES[group] ?? []),
      ...(MORE_KIND_RULES[group] ?? []),
      ...(EVERYDAY_KIND_RULES[group] ?? []),
      ...(LEXICON_RULES[group] ?? []),
    ];
  }
  return merged;
}
