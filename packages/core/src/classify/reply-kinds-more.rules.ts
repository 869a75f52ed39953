import type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

/**
 * More reply kinds written across the seven languages at once (English, German,
 * French, Spanish, Portuguese, Italian, Dutch), found missing when replies by a
 * writer who had not read the rules were measured (dev-4): removal from a
 * company's lists, "don't know who handles it", "X has retired / no longer looks
 * after it / is now in charge", "thanks anyway", "we do it in-house", "we just
 * renewed our contract", "not this year", "send us the catalogue", volume-discount
 * questions, office closures and parental leave. Folded text: lower case, no
 * accents (see foldText).
 */
export const MORE_KIND_RULES: Readonly<Partial<Record<ReplyRuleGroup, readonly ReplyRule[]>>> = {
  unsubscribe: [
    {
      label: 'asks to be removed from their lists or databases (seven languages)',
      pattern:
        /\baus (samtlichen|allen|ihren|ihrem) (e-?mail-?)?(verteilern|verteiler|listen|datenbanken|adresslisten)\b|\b(eliminen|eliminar|borren|borrar|supriman|suprimir|quiten|saquen)(la|lo|las|los|me|nos)? de (sus|vuestras|vuestros|todas sus) (bases de datos|base de datos|listas|ficheros)\b|\bse abstengan de (enviar|remitir)\b|\b(remover|removam|retirem|excluam|apaguem|tirem)(-nos|-me)?( o nosso| o meu| nosso| meu)?( e-?mail| endereco| contato)? (das|da|de) (suas|sua) (listas|lista|base|bases|cadastro)\b|\b(rimuover|cancellar|eliminar|togliet|rimuovet|cancellat)\w{0,4} dai (vostri|suoi) (elenchi|archivi|database|liste|indirizzari)\b|\buit (uw|jullie|je) (bestanden|bestand|database|lijsten|mailinglijst|adreslijst|adressenbestand)\b[^.]{0,30}\bverwijder|\bverwijder(en)? uit (uw|jullie|je) (bestanden|bestand|database|lijsten)\b/,
    },
    {
      label: 'tells us, informally, to stop writing (seven languages)',
      pattern:
        /\bno (me|nos) (escribas|escribais|mandes|envies)( mas)?\b|\bpar(a|e|em) de (me |nos )?(mandar|enviar) (e-?mails?|emails?|mensagens)\b|\bnao (me|nos) (mande|envie|escreva|mandem|enviem)(m)? mais\b|\bnon (mi|ci) (scrivete|scrivere|mandate|inviate) piu\b|\bnon scrivermi piu\b|\bmail (me|mij|ons) niet meer\b|\bschreib(t|en sie)? (mir|uns) nicht mehr\b|\bdon'?t (e-?mail|write to) me again\b/,
    },
  ],
  left_company: [
    {
      label: 'says someone has retired or left (seven languages)',
      pattern:
        /\b(has|have) retired\b|\bis (now )?retired\b|\b(ist|bin) (seit \w+ )?(im ruhestand|in rente|in pension)\b|\b(est|suis) (partie? )?a la retraite\b|\b(se ha|me he) jubilado\b|\besta jubilad[oa]\b|\b(se aposentou|esta aposentad[oa])\b|\bsaiu da empresa\b|\b(e|sono) (andat[oa] )?in pensione\b|\b(is|ben) (sinds \w+ )?met pensioen\b/,
    },
  ],
  wrong_person: [
    {
      label: 'is only an intern or assistant, or does not decide (seven languages)',
      pattern:
        /\b(sou|sono|ik ben) (apenas|so|solo|soltanto|maar|slechts|alleen) (um |uma |uno |una |un |een |a |o |la |il |lo |de )?(estagiari[oa]|assistente|stagista|stagiair(e)?|assistent|receptionist(e)?|recepcionista|receptionist)\b|\b(i )?(don'?t|do not) (decide|make (the|that|this) (call|decision))\b|\bich entscheide (das|hier|daruber) nicht\b|\bje ne (decide|prends) pas (la decision|ce genre)\b|\bno (decido|tomo la decision) yo\b|\bnao (sou eu quem decide|decido)\b|\bnon (decido|sono io a decidere)\b|\bik beslis (dit|dat|hier|daar)? ?niet\b|\bbeslis ik niet\b/,
    },
    {
      label: 'says another team or department handles it (seven languages)',
      pattern:
        /\bthat would be (our|my) \w+ (team|department|manager|lead)\b|\b(that'?s|this is) (handled by|for) (our|my) \w+ (team|department)\b|\bdas macht bei uns (die|der|das)\b|\b(cela|ca) releve (du|de la|de l'|des)\b|\b(isso|isto) (e|fica) com (o|a) (departamento|setor|area|equipe|time)\b|\b(questo|quello) lo (gestisce|segue|decide) (l'|il |la |lo )\b|\bloopt via (onze|de|het)\b/,
    },
    {
      label: 'does not know who handles it (seven languages)',
      pattern:
        /\b(no idea|not sure|(i )?(don'?t|do not) know) (who|whom) (to|you should|handles|is responsible|deals|decides|looks after|takes care)\b|\bnot involved in (\w+ )?(decisions|purchasing|buying)\b|\b(weiss|wusste) (ich )?nicht,? wer\b|\bkeine ahnung,? wer\b|\b(je ne sais pas|je ne saurais (pas )?(vous |te )?dire|aucune idee) (qui|a qui)\b|\bje m'occupe (de la|du|des|de l')[^.,]{0,30}, pas (de la|du|des|de l')\b|\bno (se|sabria decir(te|le)?) (a )?quien\b|\b(esto )?no me toca( a mi)?\b|\bnao sei (a )?quem\b|\bnon so (chi|a chi)\b|\b(ik )?weet (ik )?niet wie\b|\bgeen idee wie\b/,
    },
    {
      label: 'says someone else now looks after it or no longer does (seven languages)',
      pattern:
        /\b(doesn'?t|does not) (handle|deal with|look after|manage|own|run)\b|\bthe person you (want|need|should (talk|speak|write) to)\b|\b(leitet|betreut|verantwortet) (jetzt|nun|inzwischen)\b|\bkummert sich nicht mehr\b|\bne s'occupe plus\b|\bc'est (desormais|maintenant) \w+ qui\b|\bya no (lleva|gestiona|lleva el|se encarga)\b|\b(ahora|hoy) (lo lleva|se encarga|quien lleva)\b|\bnao (cuida|trata|responde por) mais\b|\b(hoje|agora) quem (cuida|responde|trata|e responsavel)\b|\bnon se ne occupa piu\b|\b(il|la) responsabile [\w ]{0,20}\b(ora|adesso) e\b|\b(valt|gaat) nu (onder|over)\b|\b(doet|beheert) dat niet meer\b/,
    },
  ],
  not_interested: [
    {
      label: 'is satisfied with its current supplier, or says no thanks (seven languages)',
      pattern:
        /\b(estamos|estou) (muito )?satisfeit[oa]s? com\b|\b(siamo|sono) (molto )?soddisfatt[io] (del|della|dei|delle|di|con)\b|\b(we zijn|ik ben) (erg |heel )?tevreden (met|over)\b|\bnao,? obrigad[oa]\b|\b(geen|niet onze) prioriteit\b|\bnon e una priorita\b|\bnao e uma prioridade\b/,
    },
    {
      label: 'closes with a polite "thanks anyway" (seven languages)',
      pattern:
        /\bthanks? (you )?anyway\b|\b(trotzdem|dennoch) (danke|vielen dank)\b|\bdanke trotzdem\b|\bmerci (tout de meme|quand meme|malgre tout)\b|\bgracias (igualmente|de todas formas|de todos modos)\b|\bobrigad[oa] (mesmo assim|de qualquer forma|de toda forma)\b|\bgrazie (comunque|lo stesso)\b|\b(toch|alsnog) bedankt\b|\bbedankt (toch|alsnog)\b/,
    },
    {
      label: 'says it is no longer needed or relevant (seven languages)',
      pattern:
        /\b(aren'?t|isn'?t|not) (really )?relevant (for|to) us\b|\bno longer (need|relevant)\b|\b(sind|ist) (fur uns )?(nicht mehr|nicht) (relevant|notig)\b|\bne nous (sert|servent) plus\b|\bn'avons besoin de rien\b|\bno (nos|me) hace(n)? falta\b|\bnao (nos )?(precisamos|faz sentido)\b|\bnon e il caso\b|\bniente da fare\b|\bnon ci serve\b|\bgaat (hem )?niet worden\b|\b(niks|niets) voor ons\b/,
    },
    {
      label: 'does it in-house or has its own (seven languages)',
      pattern:
        /\b(we do|we handle|done) (it|this|that|everything|all of (it|that)) in-?house\b|\bwir haben (eine|einen|ein) eigene(n|s)?\b|\bmachen wir (selbst|intern)\b|\b(nous )?(faisons|gerons) (tout|cela|ca) en interne\b|\blo hacemos (nosotros|internamente|en casa)\b|\bfazemos (isso |tudo )?internamente\b|\b(facciamo|gestiamo) gia internamente\b|\b(le|li|lo|la) facciamo gia\b|\b(maken|doen) we zelf\b|\bin eigen beheer\b/,
    },
    {
      label: 'has just renewed a contract with its supplier (seven languages)',
      pattern:
        /\b(just )?renewed (our|the) (contract|agreement)\b|\bvertrag (gerade |eben )?verlangert\b|\b(avons|venons de) (renouvele|re-?signe) (notre|le) contrat\b|\b(hemos|acabamos de) renova(do|r) (el|nuestro) contrato\b|\b(renovamos|acabamos de renovar) o contrato\b|\brinnovato il contratto\b|\b(lease)?contract\b[^.]{0,60}\bverlengd\b/,
    },
    {
      // A sentence of its own ("Adesso no, ..."): "ahora no puedo, llámame" is no decline.
      label: 'says not now (seven languages)',
      pattern:
        /(^|[.!?;]\s*)((ahora|de momento|por ahora) no|(agora|por enquanto|por agora) nao|(adesso|per ora|per il momento) no|(nu|op dit moment) (even )?niet)\s*([,.!;]|$)/,
    },
    {
      label: 'has no budget for it (seven languages)',
      pattern:
        /\bkein(en)? budget\b|\bpas de budget\b|\b(no tenemos|no hay|sin) presupuesto\b|\bnao (temos|ha) (orcamento|verba)\b|\bnon (abbiamo|c'e) (il |un )?budget\b|\bgeen budget\b/,
    },
    {
      label: 'chose another supplier (seven languages)',
      pattern:
        /\b(avons|ai) (choisi|retenu) un autre (prestataire|fournisseur|partenaire|outil)\b|\b(hemos )?(elegido|escogido) (a )?otro (proveedor|partner)\b|\bescolhemos outr[oa] (fornecedor|empresa|parceiro)\b|\b(abbiamo )?scelto un altro (fornitore|partner)\b|\bvoor een andere (partij|leverancier|aanbieder|partner) gekozen\b/,
    },
    {
      label: 'not this year, or not the right moment (seven languages)',
      pattern:
        /\bnot this year\b|\bdieses jahr (nicht|kein)\b|\bkein guter zeitpunkt\b|\bpas cette annee\b|\bpas le bon moment\b|\beste ano no\b|\b(esse|este) ano nao\b|\bnao e (um )?bom momento\b|\bquest'anno non\b|\bnon e il momento giusto\b|\bdit jaar (niet|geen)\b|\bgeen goed moment\b/,
    },
  ],
  interested: [
    {
      label: 'asks us to send the catalogue, prices or a sample (seven languages)',
      pattern:
        /\bsend (me |us )?(a |the |your )?(sample|samples|catalog(ue)?|price list|rates|offer)\b|\b(schicken|senden) sie (uns|mir) (gerne |bitte )?(den|die|das|ein|eine|einen|ihren|ihre) (katalog|preisliste|angebot|muster|probe|prasentation|preise)\b|\bschick(t)? (uns|mir) (gerne |bitte )?(den|die|das|ein|eine) (katalog|preisliste|angebot|muster|preise)\b|\b(envoyez|envoie|envoyer)[- ](nous|moi) (le|la|les|votre|vos|un|une) (catalogue|tarifs|prix|echantillon|devis|presentation|brochure|offre|conditions)\b|\b(mandame|enviame|mandanos|envianos|mandenos|envienos|mandeme|envieme)( el| la| los| las| un| una| su| tu)? (catalogo|tarifas|precios|muestra|presupuesto|presentacion|propuesta|oferta)\b|\b(manda|mande|envie|envia|me manda|me envie|nos envie|nos mande)( o| a| os| as| um| uma)? (catalogo|precos|tabela|amostra|orcamento|apresentacao|proposta)\b|\b(inviateci|mandateci|inviatemi|mandatemi|mandami|inviami|mandaci|inviaci)( il| la| i| le| un| una| uno)? (catalogo|listino|prezzi|campione|preventivo|presentazione|proposta|offerta|condizioni)\b|\b(stuur|stuurt u) (ons|me|mij) (de|een|jullie|uw|je) (catalogus|prijzen|prijslijst|offerte|sample|proefmonster|presentatie|brochure)\b/,
    },
    {
      label: 'welcomes the offer (seven languages)',
      pattern:
        /\bklingt (super|toll|prima|klasse)\b|\bci farebbe (molto )?piacere\b|\blijkt (ons|me|mij) (erg |heel )?(leuk|goed|interessant|mooi)\b|\b(me|nos) (parece|suena) (genial|muy bien|interesante)\b|\b(parece|seria) (otimo|interessante)\b|\b(ca|cela) (nous|me) (tente|plairait)\b/,
    },
    {
      label: 'asks what it would cost for them (seven languages)',
      pattern:
        /\b(combien (pour|coute|couterait|ca)|qual (seria|e|o) (o )?(valor|preco|custo)|quanto (verrebbe|viene|costerebbe)|was (wurde|kostet) (das|es)|wat zijn de kosten|que precio (tendria|tiene))\b[^.!?]{0,60}\?/,
    },
    {
      label: 'asks about volume discounts or unit rates (seven languages)',
      pattern:
        /\b(volume|bulk|quantity) discount\b|\bper-?(word|user|seat|unit|head) (rate|price)\b|\bmengenrabatt\b|\bremise (sur (le )?volume|quantitative)\b|\bdescuento por (volumen|cantidad)\b|\bdesconto por (quantidade|volume)\b|\bsconto (per quantita|sul volume)\b|\bstaffelkorting\b|\bkorting (bij|voor) (grote )?(aantallen|volume)\b/,
    },
  ],
  out_of_office: [
    {
      label: 'says the office is closed for a period (seven languages)',
      pattern:
        /\b(office|practice|clinic|shop|company|store) (is|will be) closed (from|until|between|for)\b|\b(ist|bleibt|sind|bleiben) (vom|von|bis|zwischen) [^.]{0,30}\bgeschlossen\b|\bgeschlossen (vom|von|bis)\b|\b(est|sera) fermee? (du|jusqu|entre)\b|\b(esta|estara|permanecera) cerrad[oa] (del|desde|hasta|entre)\b|\b(esta|estara|ficara|fica) fechad[oa] (de|do|da|ate|entre)\b|\b(e|sara|rimarra|restera|resta) chius[oa] (dal|da|fino)\b|\b(is|blijft) gesloten (van|vanaf|tot|tussen)\b/,
    },
    {
      label: 'is on holiday or sick until a date, or the office is shut (seven languages)',
      pattern:
        /\b(bin|sind)\b[^.]{0,30}\b(im urlaub|krankgeschrieben|nicht erreichbar)\b|\b(betriebsurlaub|betriebsferien)\b|\bin malattia\b|\bde atestado\b|\bik ben ziek\b(?! van)|\bchiuso per ferie\b|(?<!\b(vostro|vostra|jullie|uw|your|votre|vos|vuestra|vuestro|vuestras|vuestros|su|sus|ihr|ihre|euer|eure|seu|sua|dein|deine|je) )\b(ufficio|kantoor|buro|bureaux?|oficinas?|escritorio) (e |is |sono |sont |estan |esta )?(chius[oa]|gesloten|geschlossen|fermes?|cerrad[oa]s?|fechad[oa]s?)\b|\b(sont|seront) fermes jusqu|\bpermanecen cerrad[oa]s\b/,
    },
    {
      label: 'is at a trade fair or conference (seven languages)',
      pattern:
        /\b(i am|i'm|im) at a (trade (fair|show)|congress|summit)\b|\bje suis (sur|a|en) (un salon|une conference|un congres|seminaire)\b|\b(estoy|estare) en (un|una) (congreso|feria|conferencia)\b|\b(estou|estarei) (em|num|numa) (congresso|feira|conferencia)\b|\b(sono|saro) (a|ad|in) (una|un) (fiera|congresso|conferenza)\b|\bik ben op (een )?(beurs|congres|conferentie)\b/,
    },
    {
      label: 'is on parental or medical leave, not reading mail (seven languages)',
      pattern:
        /\b(parental|maternity|paternity) leave\b|\bcongedo (parentale|di maternita|di paternita|per malattia)\b|\b(zwangerschaps|ouderschaps|bevallings)verlof\b|\bconge (parental|maternite|paternite)\b|\b(baja|permiso) (de|por) (maternidad|paternidad)\b|\bnon leggo la posta\b|\blees (ik )?mijn (e-?)?mail niet\b/,
    },
  ],
};
