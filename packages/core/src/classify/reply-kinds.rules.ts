import type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

/**
 * Reply kinds written across the seven languages at once (English, German, French,
 * Spanish, Portuguese, Italian, Dutch), so that a kind learnt in one language is
 * not missing in the others: "stop writing to me", "delete my data", "we already
 * have a tool", "not the right time", "not my area", "I left the company",
 * "send me a demo", "what would it cost", business trips and parental leave.
 * Folded text: lower case, no accents (see foldText).
 */
export const KIND_RULES: Readonly<Partial<Record<ReplyRuleGroup, readonly ReplyRule[]>>> = {
  unsubscribe: [
    {
      label: 'asks us to stop writing (seven languages)',
      pattern:
        /\bstop (e-?mailing|mailing|writing to|contacting|messaging) (me|us)\b|\bhoren sie (bitte )?auf,? (mir|uns)\b|\b(arretez|cessez) de (m'|nous )?(envoyer|ecrire|contacter|relancer)\b|\bdej(en|e|ad) de (escribirme|enviarme|escribirnos|enviarnos|contactarme|mandarme)\b|\bpar(em|e) de (me |nos )?(enviar|mandar|escrever|contatar)\b|\bsmett(ete|a|ere) di (scrivermi|inviarmi|mandarmi|contattarmi|scriverci)\b|\bstop (alsjeblieft |aub )?met (mij|me|ons) (te )?(mailen|e-?mailen|benaderen)\b|\b(niet|nooit) meer (mailen|e-?mailen|benaderen)\b/,
    },
    {
      label: 'asks us to delete their data (seven languages)',
      pattern:
        /\b(delete|remove|erase) (all )?(my|our) (data|details|contact details|information)\b|\b(loschen|entfernen) sie (bitte )?(meine|unsere) (daten|kontaktdaten|adresse)\b|\bsupprime[zr] (mes|nos) (coordonnees|donnees|informations)\b|\b(borren|eliminen|borrad|eliminad|borra|elimina) (mis|nuestros) datos\b|\b(apaguem|apague|apagar|removam|remova|eliminem|excluam|exclua) (os )?(meus|nossos) dados\b|\b(cancellate|cancella|cancellare|eliminate|rimuovete|rimuovi) (i )?(miei|nostri) (dati|contatti|riferimenti)\b|\b(rimuovete|rimuovi|rimuovere|cancellate|togliete) (il )?mio (indirizzo|contatto|nominativo)\b|\bverwijder (mijn|onze) (gegevens|adres|e-?mailadres|contactgegevens)\b/,
    },
    {
      label: 'says they want no more mail (seven languages)',
      pattern:
        /\bremove me from all (future )?(communications|emails|mailings)\b|\b(non|no) (desidero|voglio|vogliamo) (piu )?ricevere\b|\bno (quiero|queremos|deseo) recibir (mas )?(correos|e-?mails|mensajes)\b|\bcancelar o (recebimento|envio)\b|\bne (souhaite|veux|souhaitons|voulons) plus recevoir\b|\b(wil|willen) geen (e-?mails|mails|berichten) meer\b|\b(graag )?uitschrijven\b|^\W*(unsubscribe|desabonnement|desinscription|baja|abmelden|afmelden|disiscrivimi|descadastrar)\W*$/,
    },
  ],
  left_company: [
    {
      label: 'says they left the company (seven languages)',
      pattern:
        /\b(ich )?arbeite nicht mehr (bei|fur)\b|\bje ne travaille plus (chez|pour|dans|a)\b|\b(deje|he dejado|abandone) la empresa\b|\b(sai|saí|deixei) da empresa\b|\bho lasciato (l'azienda|la societa|la ditta)\b|\b(ben|is) (vorig jaar |onlangs |sinds \w+ )?(vertrokken|weg) bij\b|\bheb (het bedrijf|de organisatie) verlaten\b/,
    },
  ],
  out_of_office: [
    {
      label: 'says they are away: travel, leave, no access to mail (seven languages)',
      pattern:
        /\b(i am|i'm|im) (currently )?(away from (the |my )?(office|desk)|out on (\w+ )?leave|out sick|on leave)\b|\bno access to (my )?e-?mail\b|\bwhen i'?m back\b|\bbin\b[^.]{0,40}\bnicht im (buro|hause|haus|office)\b|\b(dienstreise|geschaftsreise|elternzeit)\b|\beingeschrankt(em|en)? zugriff\b|\ben deplacement\b|\bde viaje (de negocios|de trabajo)\b|\bestarei (ausente|fora)\b|\b(estou )?em viagem\b|\blicenca (maternidade|paternidade|medica)\b|\bsem acesso ao e-?mail\b|\bquando (voltar|retornar)\b|\bsaro (fuori|assente|in ferie)\b|\b(sono )?in trasferta\b|\bsenza accesso (alla posta|all'e-?mail|alla mail)\b|\b(sono )?in maternita\b|\b(op zakenreis|met (zwangerschaps|ouderschaps|bevallings)?verlof)\b|\bgeen toegang tot (mijn )?e-?mail\b|\bbeperkt(e)? toegang\b|\bna mijn terugkeer\b|\bniet op kantoor\b/,
    },
  ],
  wrong_person: [
    {
      label: 'says they are the wrong person or it is not their area (seven languages)',
      pattern:
        /\bwrong (person|contact)\b|\b(this )?(isn'?t|is not|not) something i (look after|handle|deal with|own|manage)\b|\byou'?re looking for\b|\bnicht (in )?mein(en)? (zustandigkeitsbereich|aufgabenbereich)\b|\b(bin|ist) (dafur )?nicht zustandig\b|\bpas (le bon|la bonne) (interlocuteur|interlocutrice|personne|contact)\b|\bce n'est pas moi qui (gere|m'occupe|decide|traite)\b|\bno soy la persona (adecuada|indicada|correcta)\b|\bno es de mi (area|competencia)\b|\bnao sou a pessoa (certa|indicada|correta)\b|\bnao e (da|de) minha (area|responsabilidade|competencia)\b|\bnon e di mia competenza\b|\bnon me ne occupo\b|\bniet de juiste (persoon|contactpersoon)\b|\bvalt niet onder mijn\b|\bdaar ga ik niet over\b/,
    },
  ],
  not_interested: [
    {
      label: 'already has a tool or solution (seven languages)',
      pattern:
        /\balready (have|use|run) (a|an|our own) (tool|solution|platform|vendor|system)\b|\b(schon|bereits) eine losung\b|\bdeja une (solution|outil)\b|\bya (tenemos|usamos|utilizamos) (una|un) (herramienta|solucion|proveedor|sistema)\b|\bja (usamos|temos|utilizamos) uma (ferramenta|solucao)\b|\babbiamo gia (uno|un|una) (strumento|soluzione|fornitore|sistema)\b|\b(we )?gebruiken (hier )?al (een|iets)\b/,
    },
    {
      label: 'says it is not the time or asks us not to follow up (seven languages)',
      pattern:
        /\bnot looking for (anything|this|a solution)\b|\b(isn'?t|is not|not) (a |our )?(top )?priority\b|(^|[.!] )(i'?ll |we'?ll )?pass( for now| on this)?[.!]?$|\b(please )?(don'?t|do not) follow up\b|\bpasst (aktuell|derzeit|gerade|im moment) nicht\b|\bnicht (weiter )?nachfassen\b|\bpas interesse(e|s|es)?\b|\bce n'est pas le moment\b|\bpas un sujet pour nous\b|\bne (plus )?(pas )?(relancer|insister)\b|\bno estamos interesados\b|\bno es (buen|el) momento\b|\bno insistan\b|\bnao e o momento\b|\bnao insistam\b|\bnon e il momento\b|\bnon insistere\b|\bniet het juiste moment\b|\bniet (meer )?opvolgen\b/,
    },
  ],
  interested: [
    {
      label: 'asks for material, a demo or a call (seven languages)',
      pattern:
        /\bcould be (useful|helpful|interesting)\b|\b(i'?d|i would) (like|love) to (learn|hear|know) more\b|\bset up a (call|meeting|demo)\b|\bschicken sie (mir )?(gerne )?(mehr )?(informationen|unterlagen)\b|\benvoyez-moi (une|la|de la|votre) (documentation|presentation|plaquette|demo)\b|\bd'accord pour (un|une) (echange|appel|rendez-vous|demo)\b|\b(me )?(puede|podria) (mandar|enviar)(me)? (una|la|mas) (demo|informacion|propuesta)\b|\bpodemos hablar\b|\bpode (me )?(enviar|mandar) (uma|a|mais) (demonstracao|demo|proposta|informacao)\b|\bpodemos falar\b|\b(puo|potete|potrebbe) (mandarmi|inviarmi) (una|la|piu) (demo|presentazione|proposta)\b|\bpossiamo sentirci\b|\bkun je (me )?(een|de) (demo|offerte)\b|\bwe kunnen (\w+ )?bellen\b/,
    },
    {
      // A question, as the lexicon's price rule: a statement about cost is no interest.
      label: 'asks what it costs (seven languages)',
      pattern:
        /(\b(quel serait le|quel est le) (cout|prix|tarif)|\bcuanto (costaria|cuesta|cobran)|\bquanto (custaria|custa|costerebbe|costa)|\bwat (zou|gaat) (het|dat) [^.?]{0,40}kosten|\bwat kost (het|dat))\b[^.!?]{0,60}\?/,
    },
  ],
};
