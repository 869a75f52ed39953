import type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

/**
 * Phrase rules for Portuguese, Italian, Dutch and Polish, and the wordings of
 * English, German, French and Spanish that the first phrase lists missed (a
 * competitor signed, a person who left in a given month, a referral to an
 * address). Folded text: lower case, no accents (see foldText).
 */
export const MORE_LANGUAGE_RULES: Readonly<Partial<Record<ReplyRuleGroup, readonly ReplyRule[]>>> = {
  unsubscribe: [
    {
      label: 'asks to unsubscribe (Portuguese)',
      pattern:
        /\bdescadastr\w*|\bcancelar (a |minha )?inscricao\b|\b(me )?(tire|tirem|retire|retirem|remova|removam)(-me)? (meu (e-?mail|endereco)|da (sua |sua )?lista)\b|\bremov(a|am|er) (o )?meu (e-?mail|endereco|contato)\b|\bnao (quero|queremos|desejo) (mais )?receber\b|\bpare(m)? de (me )?(enviar|mandar|escrever)\b|\bnao (me )?(envie|enviem|mande|mandem) mais\b/,
    },
    {
      label: 'asks to unsubscribe (Italian)',
      pattern:
        /\bcancella(te)?(mi|ci)\b|\bcancellar(mi|ci)\b|\bdisiscriv\w*|\bdisiscrizione\b|\brimuove(te)?(mi|ci)\b|\brimuover(mi|ci)\b|\btoglietemi\b|\bnon (voglio|vogliamo|desidero) piu ricevere\b|\bsmette(te|re) di (scrivermi|inviarmi|contattarmi|scrivere)\b|\bnon (scrivetemi|contattatemi) piu\b/,
    },
    {
      label: 'asks to unsubscribe (Dutch)',
      pattern:
        /\buitschrijven\b|\bafmelden\b|\bschrijf (mij|me|ons) uit\b|\b(haal|verwijder) (mij|me|ons)\b|\bniet meer ontvangen\b|\bstop met (mailen|e-?mailen|sturen)\b|\bgeen (e-?mails|mails|berichten) meer\b/,
    },
    { label: 'asks to unsubscribe (Polish)', pattern: /\bwypisz\w*|\bprosze o usuniecie\b|\bnie wysylac\b/ },
  ],
  left_company: [
    {
      label: 'the person has left the company (more wordings)',
      pattern:
        /\b(i|he|she) (left|quit) (the company|the firm|the organi[sz]ation|the business|(?!(smoking|drinking|it|this|that|you|him|her|them|early|home|work|school)\b)\w+ (in|at the end of|last) \w+)\b|\b(i|he|she) (have|has) left \w+\b(?= (in|on|at|last) )|\bya no (trabajo|formo parte|estoy) (en|con|para|de)\b|\bne (fais|fait) plus partie\b|\bnicht mehr (im|in unserem|bei dem|bei der) (unternehmen|firma)\b|\bnao (trabalho|estou) mais (na|nesta|com a|para a) empresa\b|\b(sai|deixei) da empresa\b|\bnon lavoro piu (in|per|presso|con)\b|\bho lasciato (l'azienda|la societa|l'impresa)\b|\bnon faccio piu parte\b|\bwerk (hier |daar )?(sinds \w+ )?niet meer\b|\bwerk niet meer bij\b|\buit dienst\b|\bheb het bedrijf verlaten\b|\bjuz nie pracuje\b|\b(i'?m|i am|he'?s|he is|she'?s|she is|they'?re|they are) no longer (with|at|employed (at|by|with)|working (at|for|with)|part of)\b|\bmy last day (at|with|in) [^.\n]{1,40} (was|is)\b|\b(have|has) moved on from\b|\b(ja )?nao trabalho mais\b|\bja nao (trabalho|estou|faco parte) (na|nesta|para|com|da|de)\b|\bnao faco mais parte\b|\bmoved on from\b|\bya no (trabaja|esta) (aqui|aca|en la empresa|con nosotros|en \w+)\b|\b(ist|arbeitet) nicht mehr (bei uns|hier|im unternehmen)\b|\bn'est plus (chez nous|dans l'entreprise|dans la societe|avec nous)\b|\bhas left (the company|us|\w+)\b/,
    },
  ],
  out_of_office: [
    {
      label: 'says they are away (Portuguese, Italian, Dutch, Polish, Japanese)',
      pattern:
        /\bestou (de ferias|fora do escritorio|ausente|em licenca|de licenca|viajando)\b|\bfora do escritorio\b|\bresposta automatica\b|\b(retorno|retornarei|volto) (no dia|em|a)\b|\bsono (in ferie|fuori (ufficio|sede)|assente|in viaggio|in maternita)\b|\bfuori ufficio\b|\brisposta automatica\b|\bal mio rientro\b|\brientrero\b|\bben\b.{0,30}\b(niet op kantoor|afwezig|met vakantie|op vakantie|met verlof)\b|\bautomatisch antwoord\b|\bna mijn terugkomst\b|\bjestem (na urlopie|poza biurem|nieobecn[ya])\b|\bautomatyczna odpowiedz\b|\bnieobecnosc\b|不在|休暇中|自動応答|自動返信/,
    },
  ],
  wrong_person: [
    {
      label: 'says they are the wrong person (Portuguese, Italian, Dutch)',
      pattern:
        /\bnao sou (a pessoa|o responsavel|a responsavel|eu o responsavel)\b|\bnao e comigo\b|\bquem cuida (disso|desse|dessa)\b|\bnon sono (la persona giusta|il responsabile|la responsabile|io (il|la) responsabile|io la persona)\b|\bniet de juiste persoon\b|\b(ben|is) (daar |hier )?niet verantwoordelijk\b|\bdaar ben ik niet verantwoordelijk\b|\bbei mir (leider )?(falsch|an der falschen adresse)\b|\bfalschen? (ansprechpartner|ansprechperson|person|adresse)\b|\bno lo llevo yo\b|\bno (me )?corresponde a mi\b|\bno es (mi|de mi) (area|competencia|departamento)\b/,
    },
    {
      label: 'says it is not their area, or names who decides',
      pattern:
        /\bi think you (want|need|mean|are looking for)\b|\bi('ve| have)? (moved|switched|transferred) (to|into) (product|engineering|marketing|finance|operations|another (team|role|department|position)|a (different|new) (team|role|department|position))\b|\b(runs|owns|leads|handles) (the|our) [\w -]{1,30} (team|function|budget|decision) now\b|\byou('ll| will)? (want|need|should) (to )?(speak|talk|reach out|get in touch) (to|with)\b|\bnot (my|our) (area|department|call|decision|remit)\b|\bnicht mein(e)? (bereich|zustandigkeit|thema|ressort)\b|\bbitte an [^.\n]{1,40} wenden\b|\bno soy (yo )?quien (decide|lleva|gestiona)\b|\b(hable|habla|hablen) con\b|\bce n'est pas (moi|mon domaine|mon perimetre)\b|\badressez-vous a\b/,
    },
    {
      label: 'points to another address',
      pattern:
        /\b(contact|contacte[rz]?|contacta|contatti|contattare|contato com|fale com|falar com|reach out to|write to|talk to|email|e-mail|mail|escriba a|escribe a|ecrivez a|ecrire a|wenden sie sich (bitte )?an|neem contact op met|scriva a|scrivete a)\b[^@\n]{0,40}\b[\w.+-]+@[\w-]+(\.[\w-]+)+/,
    },
  ],
  not_interested: [
    {
      label: 'signed with someone else',
      pattern:
        /\b(signed|went|gone|going) with (another|a different|a competing|a competitor|one of your competitors|someone else)\b|\bwent with a competitor\b|\balready (chosen|selected|picked|signed with|decided on|gone with|committed to) (a |an )?(different|another|other|competing)\b|\bnot the right time\b|\b(covered|handle[ds]?|do(ing)? (it|this|that)) in-?house\b|\b(chose|picked|selected) (a )?(competitor|someone else)\b|\bfuer (einen|eine) anderen? (anbieter|dienstleister|losung)\b|\bfur (einen|eine) anderen? (anbieter|dienstleister|losung) entschieden\b|\bmit einem anderen (anbieter|dienstleister|partner)\b|\b(signe|choisi|retenu) (avec )?(un autre|une autre|un concurrent)\b|\b(firmamos|contratamos|elegimos|cerramos)( a| con)? (otro|otra|un competidor)\b/,
    },
    {
      label: 'says it is not a fit, was decided against, or is covered',
      pattern:
        /\b(decided|chose|voted) (against|not to)\b|\b(not|isn'?t|is not|doesn'?t seem like) (a|the) (good |right |great )?fit\b|\bdon'?t think (this|it|that)('s| is) (a|the) (good |right |great )?fit\b|\bnot a priority\b|\b(we'?re|we are) (all )?(set|good|covered)\b|^\W*(pass|paso|je passe|ich passe)(?=\W*$|[,.!;]| (on (this|it|that)|thanks|gracias|merci|danke|por (ahora|esta vez)|pour (cette fois|le moment)))|\bno es de (nuestro|mi) interes\b|\bno (nos|me) interesa\b|\b(ca|cela) ne nous (concerne|interesse) pas\b|\bne (nous|me) (concerne|interesse) pas\b|\b(bereits|schon) gut aufgestellt\b|\bkein (interesse|bedarf)\b/,
    },
    {
      label: 'declines (Portuguese, Italian, Dutch)',
      pattern:
        /\bnao (temos|tenho) interesse\b|\bsem interesse\b|\bnao (estamos|estou) interessad[oa]s?\b|\bnao e (uma )?prioridade\b|\bja (temos|usamos|utilizamos|contamos com|trabalhamos com) (uma|um|outra|outro)\b|\b(fechamos|assinamos) (contrato )?com (outro|outra)\b|\bnao (precisamos|faz sentido)\b|\bnon (siamo|sono) interessat[ieao]\b|\bnon (ci|mi) interessa\b|\bnessun interesse\b|\bno,? grazie\b|\babbiamo gia (scelto|una|un)\b|\baltro fornitore\b|\bnon fa per noi\b|\bnon (ne )?abbiamo bisogno\b|\bgeen (interesse|behoefte)\b|\bniet geinteresseerd\b|\bnee,? (dank( je| u)?|bedankt)\b|\b(we|wij) hebben (hier )?al een\b|\bandere leverancier\b|\bniets voor ons\b/,
    },
  ],
  interested: [
    {
      label: 'asks for more or for who to involve',
      pattern:
        /\b(keen|eager|happy|glad|curious) to (hear|learn|know|see) more\b|\bwho should i (loop|bring|pull) in\b|\b(we'?ve|we have) been looking for (exactly |just )?(this|something like this)\b|\bare you (around|free|available)\b|\bje suis preneur\b|\bon (peut|pourrait) en (parler|discuter)\b|\bbonne idee\b|\bme interesa\b|\bnos interesa\b(?! nada)|\bhabl(emos|amos)\b|\bich bin interessiert\b|\bwir sind interessiert\b|\bgerne mehr\b/,
    },
    {
      label: 'shows interest (Portuguese, Italian, Dutch)',
      pattern:
        /\b(tenho|temos) interesse\b|\b(parece|achei) interessante\b|\b(vamos|podemos) (conversar|marcar|agendar)\b|\bmarcar uma (reuniao|conversa|call)\b|\b(envie|mande|manda)(-me)?( mais)? (detalhes|informacoes|uma proposta|uma demonstracao)\b|\bgostaria de saber mais\b|\bpode me (mandar|enviar|ligar)\b|\bme (ligue|envie)\b|\bmi interessa\b|\binteressante\b|\bpossiamo (fissare|sentirci|organizzare)\b|\bsentiamoci\b|\bmi (mandi|mandate|invii|inviate) (maggiori|piu|una|i)\b|\bchiamami\b|\bvolentieri\b|\bklinkt interessant\b|\binteressant\b|\bmeer informatie\b|\bgraag meer\b|\b(belafspraak|afspraak) (plannen|maken)\b|\bbel me\b|\blaten we\b|\bm'en dire (un peu )?plus\b|\ben savoir (un peu )?plus\b/,
    },
  ],
};
