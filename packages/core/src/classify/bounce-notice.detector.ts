/** The envelope facts that tell a bounce notice from a person's mail. */
export interface NoticeEnvelope {
  /** The From address (or display name and address) as one string. */
  from: string;
  subject: string;
  /** Header values by lower-case name. */
  headers: ReadonlyMap<string, string>;
  /** True when the message carries a copy of another message (message/rfc822 or its headers). */
  returnsMessage?: boolean;
  /** The notice's text, read only for a message sent with a null return path. */
  text?: string;
}

const DAEMON_SENDER =
  /\b(mailer-?daemon|post_?master|poostmaster|mail delivery (system|subsystem)|mail ?delivery ?service|mmdf|mdaemon|smtp gateway|mail administrator)\b/i;

// Subjects that bounce notices use, in the languages our prospects' servers speak:
// among them Exchange/Office 365's localized non-delivery subjects ("Unzustellbar:",
// "Non remis :", "Não é possível entregar:", "Kan inte levereras:", "無法傳遞:", ...)
// and Gmail's localized "Delivery Status Notification".
// Anchored near the start: a person's "Re: that delivery failure" is a reply.
const NOTICE_SUBJECT =
  /^(\S+\s+)?(niedostarczon|nie (mo[żz]na|uda[łl]o si[ęe]) dostarczy[ćc]|zwrot (wiadomo|poczty)|配信(不能|エラー|失敗|できません)|送信(できません|エラー|失敗)|宛先不明|未達|zustellung fehlgeschlagen|[ée]chec (de la )?(remise|distribution)|message non (d[ée]livr[ée]|remis)|error (en la|de) entrega|notificaci[óo]n de (error|fallo) (en la|de) entrega|notifica[çc][ãa]o de (falha|erro) (na|de) entrega|avis de non-remise|notifica di mancata consegna|melding van niet-bezorging|falha (na|de) entrega|mensagem n[ãa]o entregue|n[ãa]o entregue|mancat[oa] (recapito|consegna)|messaggio non (recapitat|recapitabil|consegnat)|non recapitat|onbestelbaar|niet (afgeleverd|bezorgd)|bezorging mislukt|aflevering mislukt|undeliver(ed|able)|undelivered mail|delivery (status notification|failure|failed|has failed|notification|report|status)|mail delivery (failed|failure|status)|mail (system error|failure|failed)|returned mail|failure (notice|delivery)|delivery failure|returned mail|message delivery has failed|non remis|non distribuable|non recapitabile|unzustellbar|nicht zustellbar|no se (pudo|puede) entregar|no entregado|mensaje no entregado|недоставленное|ваше сообщение не доставлено|delayed mail|warning: (could not send|message .* delayed)|postmaster notify|there was an error sending your mail|notice: mail delivery status|delivery status notification|n[ãa]o [ée] poss[íi]vel entregar|kan inte levereras|kan ikke leveres|ei voi toimittaa|nelze doru[čc]it|nedoru[čc]iteľn|teslim edilem|k[ée]zbes[íi]thetetlen|无法传递|無法傳遞|无法投递|배달되지 않음|전달되지 않음|αδύνατη η παράδοση|nelivrabil|benachrichtigung zum zustellstatus|notification d'[ée]tat de (la )?(remise|distribution)|notificaci[óo]n de estado (de (la )?)?entrega|notifica[çc][ãa]o de status de entrega|notifica sullo stato (della )?consegna|(mail|message|e-?mail) (could not|couldn'?t|cannot|can'?t|was not|wasn'?t) (be )?delivered|unable to deliver|メール(送信)?エラー|エラーメール)/i;

const NOTICE_SUBJECT_TAIL =
  /[:-]\s*(non remis|non d[ée]livr[ée]|undeliver(ed|able)|not delivered|nicht zugestellt|unzustellbar|no entregado|n[ãa]o entregue|non recapitato|onbestelbaar)\s*!?(\s*\([^()]{1,40}\))?$/i;

const NOTICE_WORDING =
  /could not be delivered|nie (mo[żz]na|uda[łl]o si[ęe]) dostarczy[ćc]|配信できませんでした|送信できませんでした|was not delivered|undeliverable|delivery (has )?failed|failed permanently|nicht zugestellt|unzustellbar|non remis|n'a pas pu [eê]tre (remis|distribu)|no se (ha )?pudo entregar/i;

/**
 * Says why a message is a delivery notice rather than a person's mail, or returns
 * an empty list when nothing points that way. Any one signal is enough: a
 * `multipart/report; report-type=delivery-status` body, an Exim
 * `X-Failed-Recipients` header, a daemon sender (MAILER-DAEMON, postmaster,
 * "Mail Delivery System"), a notice subject that is not a reply or forward, or a
 * null return path with our message attached or notice wording.
 */
export function detectBounceNotice(envelope: NoticeEnvelope): string[] {
  const why: string[] = [];
  const contentType = envelope.headers.get('content-type') ?? '';
  if (/multipart\/report/i.test(contentType) && /report-type\s*=\s*"?delivery-status/i.test(contentType)) {
    why.push('Content-Type is multipart/report; report-type=delivery-status (RFC 3464)');
  }
  if (envelope.headers.has('x-failed-recipients')) why.push('X-Failed-Recipients header (Exim bounce)');
  const listNotice = listManagerNotice(envelope);
  if (listNotice) why.push(listNotice);
  if (DAEMON_SENDER.test(envelope.from))
    why.push(`sender "${envelope.from.trim()}" is a mail system, not a person`);
  // A From of "<>" is the null reverse-path written as a sender: no person sends it.
  else if (/^\s*<?\s*>?\s*$/.test(envelope.from) && /<\s*>/.test(envelope.headers.get('from') ?? ''))
    why.push('sender is the null address <>, a mail system');
  // The envelope sender (Return-Path) of a notice is the daemon itself.
  const returnPath = envelope.headers.get('return-path') ?? '';
  if (why.length === 0 && /\bmailer-?daemon@/i.test(returnPath))
    why.push(`Return-Path "${returnPath.trim().slice(0, 80)}" is a mail system`);
  const subject = envelope.subject.trim();
  if (!/^(re|aw|sv|fw|fwd|wg|tr|rv)\s*:/i.test(subject) && NOTICE_SUBJECT.test(subject)) {
    why.push(`subject "${subject.slice(0, 80)}" is a delivery notice's`);
  }
  // Some gateways answer with the original subject and the verdict at its end
  // ("RE: <subject> : non remis", "Re: <subject> - undeliverable"): a reply's
  // subject, but with notice wording both there and in the text it is a notice.
  if (why.length === 0 && NOTICE_SUBJECT_TAIL.test(subject) && NOTICE_WORDING.test(envelope.text ?? '')) {
    why.push(`subject "${subject.slice(0, 80)}" ends with a delivery verdict and the text says so too`);
  }
  // RFC 5321 sends notices from the null reverse-path; together with our message
  // coming back, or notice wording, that is a bounce whatever its sender or subject.
  if (why.length === 0 && /^\s*<\s*>\s*$/.test(envelope.headers.get('return-path') ?? '')) {
    if (envelope.returnsMessage) why.push('null Return-Path <> and our message attached');
    else if (NOTICE_WORDING.test(envelope.text ?? ''))
      why.push('null Return-Path <> and delivery failure wording');
  }
  return why;
}

// Mailing-list managers (fml, Mailman, Majordomo, ezmlm, Sympa) answer from the
// list's admin or owner address, without RFC 3464, when they refuse a post.
const LIST_MANAGER_HEADER =
  /^(x-mlserver|x-ml-server|x-mailman-version|x-sympa-\w+|x-ezmlm-\w+|x-majordomo)$/i;
const LIST_ADMIN_SENDER =
  /\b[\w.+-]*(-admin|-owner|-request|-bounces?|owner-[\w.+-]+|mailman|majordomo|listserv|sympa|ezmlm)@/i;
const LIST_REFUSAL =
  /loop alert|duplicated message-id|not a member|non-member|members only|only members|posting (is )?(restricted|not allowed)|not (allowed|authorized|permitted) to post|post(ing)? (by|from) non-?members?|rejected post|auto-?discard|you are not subscribed|message (has been |was )?(rejected|discarded)/i;

/** Names the mailing-list manager's refusal, or undefined when the message is none. */
function listManagerNotice(envelope: NoticeEnvelope): string | undefined {
  const byHeader = [...envelope.headers.keys()].find((name) => LIST_MANAGER_HEADER.test(name));
  const bySender = LIST_ADMIN_SENDER.test(envelope.from);
  if (!byHeader && !bySender) return undefined;
  const words = LIST_REFUSAL.exec(`${envelope.subject}\n${(envelope.text ?? '').slice(0, 2000)}`);
  if (!words) return undefined;
  return `mailing-list manager notice (${byHeader ?? 'list admin sender'}): "${words[0]}"`;
}
