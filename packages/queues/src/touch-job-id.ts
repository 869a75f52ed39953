/**
 * The BullMQ job id of a touch: its key `{enrollmentId}-{step}[-{attempt}]` with the
 * enrollment's UUID written as the base64url of its 16 bytes (22 characters
 * instead of 36), e.g. `b8H3mJ0aQ0KuOm2xKjQd1w.2`.
 *
 * The id is stored three times per pending job (the key, the delayed set's member
 * and the job's options), and the options must stay under Redis's compact-hash
 * value limit (`hash-max-listpack-value`, 64 bytes by default) or the whole job
 * hash falls back to a table of about twice the memory. The touch key itself (the
 * provider idempotency key and the touch row's unique key) keeps the readable form.
 */
export function touchJobId(touchKey: string): string {
  const match = TOUCH_KEY.exec(touchKey);
  if (!match) throw new Error(`not a touch key: ${touchKey}`);
  const [, uuid, rest] = match;
  return `${Buffer.from(uuid!.replaceAll('-', ''), 'hex').toString('base64url')}${rest!.replaceAll('-', '.')}`;
}

/** The touch key of a job id made by `touchJobId`. */
export function touchKeyOfJobId(jobId: string): string {
  const match = JOB_ID.exec(jobId);
  if (!match) throw new Error(`not a touch job id: ${jobId}`);
  const [, packed, rest] = match;
  const hex = Buffer.from(packed!, 'base64url').toString('hex');
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return `${uuid}${rest!.replaceAll('.', '-')}`;
}

const TOUCH_KEY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})((?:-\d+){1,2})$/i;
const JOB_ID = /^([A-Za-z0-9_-]{22})((?:\.\d+){1,2})$/;
