import type { BounceReason } from './classification.types.js';

/** A phrase rule: when `pattern` matches the normalised diagnostic, the bounce has `reason`. */
export interface ReasonRule {
  reason: BounceReason;
  /** Said in the classification's `why` when the rule fires. */
  label: string;
  pattern: RegExp;
  /**
   * The phrase is final even when answered to DATA: some providers (Yahoo) check
   * recipients only after the message, so their "no such account" is not a filter.
   */
  definitive?: boolean;
}

/**
 * Phrase rules over a bounce's diagnostic text (lower case, single spaces, see
 * normalizeDiagnostic), tried in this order; the first that matches wins.
 *
 * The order is the point. Rules that blame our side (authentication, reverse DNS,
 * block lists, spam and policy filters) come before the rules that declare the
 * address dead, because filtering servers often dress a refusal as "user unknown"
 * or "mailbox unavailable", and suppressing a live address is the costlier mistake.
 * A full or disabled mailbox also comes first: "mailbox full" is not "no mailbox".
 */
export const REASON_RULES: readonly ReasonRule[] = [
  {
    reason: 'authfailure',
    label: 'the receiver says SPF, DKIM or DMARC failed for our domain',
    pattern:
      /\b(spf|dkim|dmarc)\b[^.]{0,80}\b(fail\w*|check\w*|record|polic\w+|settings|alignment|not pass\w*)|multiple authentication checks failed|not allowed to send from .{0,80}spf|unauthenticated email|authentication (checks? )?failed|sender authentication|is not authenticated|5\.7\.(26|509|515|23|24)\b/,
  },
  {
    reason: 'requireptr',
    label: 'the receiver wants reverse DNS (PTR) for our sending IP',
    pattern:
      /reverse dns|\brdns\b|\bptr\b( record)?|ip name lookup failed|no reverse|reverse lookup|reverse (host|address)|mismatches client ip|unverifyable sending ip|not resolve your (ip|hostname)|5\.7\.25\b/,
  },
  {
    reason: 'badreputation',
    label: 'the receiver rates our sending IP or domain reputation as poor',
    pattern:
      /poor reputation|bad reputation|low reputation|reputation (is|was) (too )?(low|poor)|4\.7\.650\b/,
  },
  {
    reason: 'toomanyconn',
    label: 'the receiver limits connections from our IP',
    pattern: /too many (connections|concurrent|sessions)|connection limit|frequency limited|ip frequency/,
  },
  {
    reason: 'speeding',
    label: 'the receiver is rate-limiting our mail',
    pattern:
      /receiving mail at a rate|rate limit(ed)?|too many recipients (this|per|in the last) (hour|day|minute)|sent to too many recipients|recipient (rate|limit) (exceeded|reached)|too (much|many) (mail|messages) (from|too)|sending (too fast|at a rate)|exceeded (the )?(sending|rate)|try again later.{0,40}too many|sending (quota|limits?) (exceeded|reached)|(daily|hourly) (sending |message |recipient )?(quota|limit)s? (exceeded|reached)/,
  },
  {
    reason: 'blocked',
    label: 'our sending IP or domain is on a block list or refused at connection',
    pattern:
      /block ?list|black ?list(ed)?(?! address)|\bdnsbl\b|\brbl\b|spamhaus|spamcop|barracudacentral|sorbs|blocked (using|by|for|-|\.)|\bblocked\b.{0,40}\b(ip|host|address|sender)|\b(ip|host|client|sender)\b.{0,40}\bblocked\b|client host rejected|bloquee|bloquée|(?<!not )listed (in|on|at|by) (the |a )?\S*(bl|block|black|spam|rbl|abuse)|\b(ip|address|host|domain) (is |was |has been )?listed\b|connection refused.{0,20}(by|from) (policy|spam)|messages from [\d.]+ weren't sent|access denied\.{2,}|\[bl\]|\(bl\)|not allowed to connect|your (ip|server|host) (is|has been) (blocked|banned|listed)|relay quota|may not be mail exchanger|5\.7\.606\b/,
  },
  {
    reason: 'virusdetected',
    label: 'the receiver found a virus in the message',
    pattern: /\bvirus\b|malware|infected/,
  },
  {
    reason: 'spamdetected',
    label: "the receiver's spam filter refused the message",
    pattern:
      /\bspam\b|\bube\b|bulk (e-?mail|mail)|junk mail|unsolicited|content rejected, ube|suspicious (content|message)|message (was )?(rejected|refused) as spam|mail rejete\. mail rejected|mail rejected\. ofr_506|classified as (spam|junk)/,
  },
  {
    reason: 'policyviolation',
    label: "the message breaks the receiver's policy",
    pattern:
      /policy (reasons|violation|rejection)|rejected for policy|not accepted for policy|violat\w+ .{0,30}polic|host network not allowed|message not allowed|prohibited|not compliant with|against (our|local) policy|content policy/,
  },
  {
    reason: 'mesgtoobig',
    label: 'the message is larger than the receiver accepts',
    pattern:
      /message (is )?too (large|big)|message size (exceeds|exceeded|limit)|size exceeded|exceeds (the )?(maximum )?(message )?size|size limit|recipsizelimit|mail size|message length exceeds .{0,20}size/,
  },
  {
    reason: 'exceedlimit',
    label: "the message exceeds one of the receiver's limits",
    pattern: /exceeds administrative limit|message length exceeds|exceeds? .{0,20}limit/,
  },
  {
    reason: 'contenterror',
    label: 'the receiver refuses a kind of content (attachments, file types), not all mail',
    pattern:
      /not accept(ing)? (any )?(mail|messages|e-?mails?) (with|containing)|(attachments?|file types?|executables?) (are |is )?(not (allowed|accepted|permitted)|blocked|prohibited)|(message|mail) contains? (a |an )?(prohibited|blocked|forbidden|disallowed) (attachment|file)/,
  },
  {
    reason: 'mailboxfull',
    label: 'the mailbox is full',
    pattern:
      /mailbox (is )?full|over ?quota|メールボックスが?(一杯|いっぱい|満杯|容量)|容量(超過|オーバー)|casella (di posta )?piena|caixa (postal |de correio )?(cheia|lotada)|mailbox (is )?vol|skrzynka (odbiorcza |pocztowa )?(jest )?(pe[lł]na|przepe[lł]niona)|quota (exceeded|full)|exceeded (the |storage |their |his |her )*(quota|allocation)|(out of|insufficient) storage space|inbox is out of storage|mailbox size limit|user is over|disk quota|postfach (ist )?voll|boîte (aux lettres )?pleine|boite (aux lettres )?pleine|buzón lleno|mailfolder is full|too many messages in (this )?mailbox|mail box full|mailbox has exceeded/,
  },
  {
    reason: 'systemfull',
    label: 'the receiving server is out of disk space',
    pattern: /insufficient (disk|system) (space|storage)|disk (is )?full|no space left/,
  },
  {
    reason: 'userunknown',
    label: 'the mailbox is disabled or closed for good (a permanent suspension is no suspension)',
    pattern:
      /\bpermanently (disabled|deactivated|suspended|closed|removed|deleted)\b|\b(no longer exists|does no longer exist|not exist any ?more)\b/,
  },
  {
    reason: 'suspend',
    label: 'the mailbox is suspended or disabled for now',
    pattern:
      /account (is |has been )?(disabled|suspended|inactive|deactivated|frozen|locked|blocked)|(disabled|suspended|inactive|deactivated) (recipient|account|mailbox|user)|(mailbox|account) (is |has been )?(temporarily )?(disabled|suspended|frozen|locked|inactive|deactivated)|temporar(il)?y locked|(user|account)\b.{0,40}\btemporar\w* (locked|disabled|suspended)|tried to reach is (disabled|inactive)|user(s)? account is disabled|5\.7\.13\b/,
  },
  {
    reason: 'norelaying',
    label: 'the receiving server refuses to relay for us',
    pattern:
      /relay(ing)? (access )?(denied|not permitted|prohibited|not allowed)|not permitted to relay|unable to relay|no relaying|relay not permitted|we do not relay|email address is not verified|sender not (allowed|authorized) to relay/,
  },
  {
    reason: 'securityerror',
    label: 'the receiver requires authentication or refuses delivery for security reasons',
    pattern:
      /delivery not authorized|unauthenticated senders? not allowed|authentication required|must (use|issue) (starttls|tls|auth)|encryption required|5\.7\.6\b|5\.7\.0 must/,
  },
  {
    reason: 'mailererror',
    label: 'the local delivery program failed on the receiving host',
    pattern:
      /procmail|mailer error|command output|x-unix|local delivery failed|\bmaildrop\b|\bexit (code|status) \d+/,
  },
  {
    reason: 'onhold',
    label: 'the receiver holds the message',
    pattern: /on hold|held for review|quarantin/,
  },
  {
    reason: 'hasmoved',
    label: 'the address has moved and no longer exists here',
    pattern:
      /no longer on (this )?server|not our (user|customer)|has moved|user not local|address (has )?changed|no longer accepts (e-?)?mail/,
  },
  {
    reason: 'rejected',
    label:
      "the receiver refuses our sender domain's DNS (no MX or A record), whatever it says of the mailbox",
    pattern:
      /sender domain .{0,40}(has no mx|no mx records?|does not resolve)|invalid dns mx or a\/aaaa resource record/,
  },
  {
    reason: 'notaccept',
    label: 'the domain does not accept mail at all (null MX)',
    pattern:
      /(host|domain)\/?(domain)? does not accept (any )?mail|does not accept mail|null mx|no mx (record|host|entry|entries)s?|no mx for\b|(has|have) no mx|no (valid )?mail exchangers?|no smtp service|does not provide (an? )?smtp service|not accepting (any |network )?(mail|messages)|does not receive (e-?)?mail/,
  },
  {
    reason: 'rejected',
    label: 'the receiver refuses our sender address or the group refuses posts',
    pattern:
      /sender address rejected|sender (is )?(rejected|refused|denied)|sender verif\w* failed|from: domain is invalid|provide a valid from|address that has been blacklisted|sending to\/from an address|mail from .{0,60} rejected|\b(group|groupe|grupo|gruppe)\b.{0,80}(may not exist|n'existe pas|no exista|nicht vorhanden|not have permission)|not have permission to post|google groups|groups\.google\.com|invalid (sender|from)|domain of sender address .{0,40} does not (exist|resolve)|sender domain .{0,40}(not exist|invalid)|sender (e-?mail )?address (is )?not valid/,
  },
  {
    reason: 'hostunknown',
    label: 'the domain does not exist or has no mail server',
    pattern:
      /host or domain name not found|domain (name )?not found|host (name )?not found|host unknown|unknown (host|domain)|no such (domain|host)|dns lookup failure|domain is not reachable|unrouteable (mail )?domain|invalid domain|domain .{0,40}does not exist|domain\b.{0,60}\b(couldn'?t|could not|cannot|can'?t) be found|(?<![\w.@-])([a-z0-9-]+\.)+[a-z]{2,} does not exist|name or service not known|name service error for name=\S+ type=mx|(could not|couldn'?t) find any host (named|by that name)|mx records? points? to non-?existent hosts?|nxdomain|host name lookup failure|could not be resolved|no mail(-| )?server/,
  },
  {
    reason: 'filtered',
    label: "'user unknown' with an empty address is how au/ezweb report a message their filter refused",
    pattern: /\b5\d\d:? : user unknown/,
  },
  {
    reason: 'userunknown',
    label: "Microsoft 365 refuses recipients missing from the tenant's directory with 'access denied'",
    pattern: /recipient address rejected: access denied|recipient address rejected\.? ?(\(in reply|$)/,
  },
  {
    reason: 'userunknown',
    label: 'the provider says it has no such account',
    pattern:
      /(doesn't|does not) have an? .{1,40} account|email account that you tried to reach does not exist/,
    definitive: true,
  },
  {
    reason: 'userunknown',
    label: 'the address is not a known or valid user of the receiving system',
    pattern: /\bnot an? (known|recogni[sz]ed|valid) (local |e-?mail )?(user|recipient|mailbox|account)\b/,
  },
  {
    reason: 'hasmoved',
    label: "the mailbox's or the domain's owner has changed (RFC 6710, X.7.17 and X.7.18)",
    pattern: /\b(mailbox|domain) owner (has )?changed\b/,
  },
  {
    reason: 'userunknown',
    label: 'the mailbox does not exist',
    pattern:
      /user ?unknown|unknown (user|recipient|address|mailbox|local-?part)|no such (user|mailbox|recipient|address|account|local)|(user|mailbox|recipient|account|address|addressee) (does not|doesn't|does no longer) exist|(user|mailbox|recipient|address) (not found|not exist|unavailable|invalid|is invalid)|not listed in (domino|the) directory|recip(ient)?notfound|recipient not found|invalid (recipient|mailbox|address|user)|destinataire invalide|adresse d au moins un destinataire invalide|mailbox unavailable|no mailbox|inactive email|account .{0,30}does not exist|unrout(e)?able address|bad destination mailbox|not a valid (mailbox|user|recipient)|user not exist|unbekannt|n'existe pas|no existe|mailbox not found|address (does not|doesn't) exist|no such (e-?mail )?address|unknown or illegal alias|recipient unknown|usu[aá]rio (desconhecido|inexistente)|utente (sconosciuto|inesistente)|gebruiker (onbekend|bestaat niet)|utilisateur inconnu|usuario (desconocido|inexistente|no existe)|destinatario (desconocido|inexistente|sconosciuto)|nieznany (u[zż]ytkownik|adresat)|(u[zż]ytkownik|adres|konto) nie istnieje|ユーザ(ー)?(が)?(存在しません|見つかりません|不明)|宛先(が)?(不明|見つかりません)|no longer (valid|active)|addressee unknown|not a known user|no mail[- ]?box (available|here|for)|mail-box (not found|unavailable|does not exist)|bad[_ ]recipient|\brcpt\b.{0,80}\b(does not|doesn'?t|dosn'?t|dose not|doesnt) exist|<[^<>\s]+@[^<>\s]+>\)? (does not|doesn'?t|dosn'?t|dose not) exist|\bnon-?existent (user|recipient|address|mailbox|account|e-?mail)|invalid (final delivery )?userid|not listed in|ディレクトリ(には見つかりません|のリストにありません)|存在しません/,
  },
  {
    reason: 'userunknown',
    label:
      'the mailbox does not exist (in the words of German, French, Spanish, Italian, Dutch and Portuguese servers, and more English ones)',
    pattern:
      /\b(postfach|adresse|e-mail-adresse|empf(ä|ae|a)nger|benutzer|konto|mailbox)\b.{0,30}\bexistiert nicht|\b(adresse|destinataire|utilisateur|bo[iî]te aux lettres|compte)( de (courrier|messagerie|courriel))? (inconnue?|inexistante?|invalide)\b|\b(direcci[oó]n|buz[oó]n|cuenta|usuario|destinatario)( de (correo|e-?mail))? (inexistente|no existe|desconocid[oa]|no v[aá]lid[oa])\b|\b(indirizzo|casella|utente|destinatario|account)( di posta| e-?mail)? (inesistente|sconosciut[oa]|non esiste|non valid[oa])\b|\b(adres|e-?mailadres|gebruiker|mailbox|ontvanger|postvak) (bestaat niet|onbekend)\b|\bonbekende (gebruiker|ontvanger|geadresseerde)\b|\b(endere[cç]o|conta|caixa postal|usu[aá]rio|destinat[aá]rio)( de (e-?mail|correio))? (inexistente|n[aã]o existe|desconhecid[oa]|inv[aá]lid[oa])\b|\bno account by that name\b|\bno valid recipients?\b|\b(address|account|mailbox) (is )?no longer in service\b/,
  },
  {
    reason: 'userunknown',
    label:
      'the address was not found (Exchange and Office 365 notices, "user <address> not found", and the wordings of German, French, Spanish, Portuguese, Italian, Dutch, Polish, Czech, Swedish, Turkish, Russian and Chinese servers)',
    pattern:
      /\b(e-?mail )?address you entered (couldn'?t|could not|can ?not) be found|\bwasn'?t found at \S+|\brecipient'?s? (e-?mail )?address (was )?not found|\b(user|mailbox|recipient|address|account) <?[^\s<>@]+@[^\s<>]+?>? (was )?(not found|does not exist|doesn'?t exist|is unknown|unknown|not known here|is unavailable|unavailable)|\b(e-?mail )?address unknown\b|\bno such person\b|\bmailbox is unavailable\b|\b(postfach|benutzer|empf(ä|ae|a)nger|e-mail-adresse|adresse|konto)\b.{0,20}\b(nicht (vorhanden|gefunden)|ung(ü|ue|u)ltig)\b|\b(adresse|destinataire|utilisateur|bo[iî]te aux lettres|bo[iî]te)( (e-?mail|de messagerie|mail))? introuvable\b|\bn'existe plus\b|\b(direcci[oó]n|buz[oó]n|usuario|destinatario|cuenta)( de correo)? no (encontrad[oa]|se encontr[oó])\b|\bno se (encontr[oó]|pudo encontrar) (la direcci[oó]n|el (buz[oó]n|usuario|destinatario))\b|\b(endere[cç]o|usu[aá]rio|destinat[aá]rio|caixa postal|conta)( de e-?mail)? n[aã]o (encontrad[oa]|localizad[oa])\b|\b(indirizzo|utente|destinatario|casella)( di posta| e-?mail)? non (trovat[oa]|esistente)\b|\b(adres|e-?mailadres|gebruiker|ontvanger|mailbox|postvak) (is )?niet gevonden\b|\bonbekend (e-?mail)?adres\b|\bnie znaleziono (adresata|u[zż]ytkownika|skrzynki|odbiorcy)\b|\bu[zž]ivatel neexistuje\b|\bnezn[aá]m[yý] (p[rř][ií]jemce|u[zž]ivatel)\b|\b(ok[aä]nd mottagare|anv[aä]ndaren finns inte)\b|\bkullan[ıi]c[ıi] bulunamad[ıi]\b|(пользователь|адресат|получатель|ящик) (не найден|не существует)|нет такого пользователя|несуществующ\S* (адрес|ящик|пользовател)|(用户|收件人|邮箱|地址|帐户|账户)(不存在|无效)/,
  },
  {
    reason: 'userunknown',
    label:
      'the address is unknown or not valid (word orders the rules above miss: "user is unknown", "unknown email address", "address not valid", and Polish, Czech, Russian, Scandinavian, Finnish, Turkish, Hungarian, Korean, Greek, Romanian and Chinese servers\' words)',
    pattern:
      /(?<!sender |sender's |from )\b(user|recipient|mailbox|addressee|account|e-?mail address|recipient address) (is )?unknown\b|\bunknown (e-?mail )?(address|account|user|recipient)\b|(?<!sender |from )\b(recipient|mailbox|user) (is )?not valid\b|\badresse( e-?mail| mail| [ée]lectronique) (inconnue|inexistante|invalide)\b|(?<!sender |from )\binvalid e-?mail (address|account|recipient)\b(?! (in|of|for) (the )?(from|sender|mail from|header|reply-to))|(?<!sender |from )\b((recipient|e-?mail|mailbox|destination) )?address (is )?not valid\b|is not a valid rfc-?5321 address|\bnieprawid[łl]owy adres (odbiorcy|e-?mail)|\b(adresat|odbiorca|u[zż]ytkownik|adres|konto|skrzynka)( e-?mail| pocztowa| odbiorcy)? nie istnieje|\b(p[řr][íi]jemce|adresa|u[zž]ivatel|schr[áa]nka) neexistuje|(адрес|адресат|получатель|пользователь|ящик)\S* не существует|такого (адреса|пользователя|ящика) нет|нет такого (адреса|ящика)|\b(mottagaren|adressen|anv[äa]ndaren|modtageren|mottakeren|brugeren|brukeren) (finns inte|findes ikke|finnes ikke)\b|\b(vastaanottajaa|osoitetta|k[äa]ytt[äa]j[äa][äa]) ei (ole olemassa|l[öo]ydy)|\bal[ıi]c[ıi] bulunamad[ıi]|\b(adres|kullan[ıi]c[ıi]|al[ıi]c[ıi]) mevcut de[ğg]il|\b(c[íi]mzett|felhaszn[áa]l[óo]|c[íi]m|postafi[óo]k) nem l[ée]tezik|\bismeretlen (c[íi]mzett|felhaszn[áa]l[óo])|수신자를 찾을 수 없|존재하지 않는 (사용자|계정|주소|메일)|(ο παραλήπτης|η διεύθυνση|ο χρήστης) δεν υπάρχει|άγνωστος (χρήστης|παραλήπτης)|\b(destinatarul|adresa|utilizatorul) nu exist[ăa]|\butilizator necunoscut|(使用者|收件者|信箱|帳號|帐号)(不存在|無效|无效)/,
  },
  {
    reason: 'userunknown',
    label: 'the account was closed, terminated or deleted',
    pattern:
      /(?<!(your|our|sender|sending) )\b(account|mailbox|user|address)\b( \S+)? (has been |was |is )?(closed|terminated|deleted|removed|cancell?ed)\b(?! (for|until|temporar))/,
  },
  {
    reason: 'userunknown',
    label:
      'the recipient was not found at the domain (Exchange and Office 365 notices in French, Spanish, Portuguese, Italian and Dutch)',
    pattern:
      /\best introuvable (sur|dans)\b|\bimpossible de trouver \S+ sur\b|\bn'a pas [ée]t[ée] trouv[ée](e)? (sur|dans)\b|\bno se (encontr[oó]|pudo encontrar|ha encontrado) (\S+ )?en\b|\bn[aã]o foi encontrad[oa] (em|no|na)\b|\bnon ([eè] stato|[eè] stata) trovat[oa] (in|su|presso)\b|\b(is|werd) niet gevonden (op|bij|in)\b/,
  },
  {
    reason: 'expired',
    label: 'delivery was retried until the message expired',
    pattern:
      /message expired|expired|retry (timeout|time) exceeded|delivery time expired|could not (be delivered|deliver|send message) for (the )?(past )?(more than )?\d+|cannot send message for|unable to deliver in|giving up|gave up|too long in (the )?queue|timed? ?out|timeout|has not yet been delivered|not yet been delivered|delayed|no answer from|4\.4\.7\b/,
  },
  {
    reason: 'networkerror',
    label: 'a network or DNS problem stopped delivery',
    pattern:
      /lost connection|connection (refused|reset|closed)|network (error|unreachable)|name service error|dns (query|lookup) failed|temporary (dns|lookup) failure|could not connect|unable to connect|no route to host|mail loop|loops back|too many hops|hop count exceeded/,
  },
  {
    reason: 'contenterror',
    label: 'the receiver refuses the content or format of the message',
    pattern:
      /content rejected|improper use of 8-bit|headers? too (large|long)|invalid (mime|header|content)|message content|malformed (message|header|mime)|line too long|5\.6\.\d+\b/,
  },
  {
    reason: 'syntaxerror',
    label: 'an SMTP protocol or address syntax error',
    pattern:
      /syntax error|improper sequence|bad sequence|command (parameter )?not (implemented|recognized)|malformed (recipient )?address|invalid command|unrecognized command|5\.5\.[124]\b/,
  },
  {
    reason: 'systemerror',
    label: 'the receiving server had an error of its own',
    pattern:
      /service (currently )?unavailable|service refus|system error|internal (server )?error|local error|configuration error|server error|temporary (failure|error|problem)|try again later|resources temporarily unavailable|could not load|too busy|server busy|veuillez essayer/,
  },
  {
    reason: 'filtered',
    label: "the recipient's filter refused the message",
    pattern:
      /message filtered|rejected by the recipient domain|recipient('?s)? preferences|content filter|filtered|filter(ing)? rule|refused by (the )?recipient|recipient .{0,30}refus/,
  },
];
