import { randomUUID } from 'node:crypto';
import fc from 'fast-check';

/**
 * fast-check arbitraries for the property-based fuzz test: values derived from the
 * JSON schemas of the OpenAPI document (so they often pass validation and reach the
 * handlers and PostgreSQL), each position sometimes replaced by something hostile.
 */

/** The part of a JSON schema the generators read. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  $ref?: string;
};

const MB = 1024 * 1024;

/** Strings PostgreSQL or a parser could choke on. */
export const hostileString = (maxLength = MB): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udc00y',
      '\ud83d',
      '\u202e💥',
      '👨‍👩‍👧‍👦',
      '__proto__',
      'constructor',
      "'; DROP TABLE prospect; --",
      '%00',
      '../../etc/passwd',
      '',
      ' ',
      '9'.repeat(40),
      '-1',
      'NaN',
      '1e309',
    ),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constant('z'.repeat(Math.min(maxLength, MB))),
  );

/** Values of another kind than expected: arrays for objects, objects for strings, `__proto__` keys. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString(),
  fc.constantFrom(null, true, 0, -1, 1e308, 2 ** 63, [], {}, [[[]]], ['\u0000']),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')),
  fc.jsonValue({ maxDepth: 3 }),
);

const stringOf = (s: JsonSchema): fc.Arbitrary<string> => {
  if (s.format === 'uuid') return fc.oneof(fc.uuid(), fc.constant(randomUUID()));
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'date') return fc.constantFrom('2026-01-01', '2026-12-24');
  if (s.format === 'date-time') return fc.constantFrom('2026-01-01T00:00:00Z', new Date().toISOString());
  if (s.format === 'uri') return fc.webUrl();
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
};

/**
 * A value for `schema`: mostly what it describes, at any position (one time in
 * `hostileOdds`) something hostile instead.
 */
export function schemaValue(
  schema: JsonSchema,
  resolve: (s: JsonSchema) => JsonSchema,
  depth = 0,
  hostileOdds = 6,
): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const valid = validOf(s, resolve, depth, hostileOdds);
  return fc.oneof({ arbitrary: valid, weight: hostileOdds - 1 }, { arbitrary: hostileValue, weight: 1 });
}

function validOf(
  s: JsonSchema,
  resolve: (s: JsonSchema) => JsonSchema,
  depth: number,
  odds: number,
): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  const union = s.anyOf ?? s.oneOf;
  if (union && union.length > 0)
    return fc.oneof(...union.map((u) => schemaValue(u, resolve, depth + 1, odds)));
  if (s.allOf && s.allOf.length > 0) return schemaValue(s.allOf[0]!, resolve, depth + 1, odds);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return fc.integer({ min: -5, max: 1000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -5, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items ? schemaValue(s.items, resolve, depth + 1, odds) : hostileValue, {
        minLength: Math.min(s.minItems ?? 0, 3),
        maxLength: Math.min(Math.max(s.minItems ?? 0, s.maxItems ?? 3), 3),
      });
    case 'object':
    case undefined: {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, p] of Object.entries(props)) record[k] = schemaValue(p, resolve, depth + 1, odds);
      const known = fc.record(record, {
        requiredKeys: Object.keys(props).filter((k) => required.has(k)),
      });
      if (typeof s.additionalProperties === 'object') {
        return fc
          .tuple(
            known,
            fc.dictionary(
              fc.oneof(fc.string({ maxLength: 10 }), hostileString(20)),
              schemaValue(s.additionalProperties, resolve, depth + 1, odds),
              { maxKeys: 3 },
            ),
          )
          .map(([a, b]) => ({ ...b, ...a }));
      }
      return known;
    }
    default:
      return hostileValue;
  }
}

/** A path or query value: a valid one for its schema, or hostile (percent-encoded, or raw bad escapes). */
export function paramOf(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): fc.Arbitrary<string> {
  const valid = validOf(resolve(schema), resolve, 0, 6).map((v) =>
    typeof v === 'string' ? v : JSON.stringify(v),
  );
  return fc.oneof(
    { arbitrary: valid.map(encodeLoose), weight: 3 },
    { arbitrary: hostileString(20_000).map(encodeLoose), weight: 1 },
    { arbitrary: fc.constantFrom('%00', '%ED%A0%80', '%F0%9F', '%', '%%', '%5B%5D', 'a%26b%3Dc'), weight: 1 },
  );
}

/** encodeURIComponent, which throws on a lone surrogate: those are sent as their (invalid) UTF-8 bytes. */
function encodeLoose(v: string): string {
  return [...v]
    .map((ch) => {
      const code = ch.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) return '%ED%A0%80';
      return encodeURIComponent(ch);
    })
    .join('');
}

/** A provider's webhook body: its known fields, each sometimes hostile, sometimes the whole body. */
export function webhookBodyOf(
  template: Record<string, unknown> | Record<string, unknown>[],
): fc.Arbitrary<unknown> {
  const one = (t: Record<string, unknown>) =>
    fc.record(
      Object.fromEntries(
        Object.entries(t).map(([k, v]) => [
          k,
          fc.oneof({ arbitrary: fc.constant(v), weight: 3 }, { arbitrary: hostileValue, weight: 1 }),
        ]),
      ),
    );
  const body = Array.isArray(template)
    ? fc.array(one(template[0]!), { minLength: 1, maxLength: 3 })
    : one(template);
  return fc.oneof({ arbitrary: body, weight: 6 }, { arbitrary: hostileValue, weight: 1 });
}

const NOW = '2026-01-01T00:00:00Z';

/** A plausible body of each webhook endpoint, for {@link webhookBodyOf}. */
export const WEBHOOK_TEMPLATES: Record<string, Record<string, unknown> | Record<string, unknown>[]> = {
  sandbox: {
    id: 'evt_1',
    type: 'reply',
    occurred_at: NOW,
    message_id: '<m1@touchbase>',
    email: 'fuzz@prospect.example',
    text: 'no thanks',
    bounce: { hard: true, status: '5.1.1', diagnostic: 'unknown user' },
  },
  http: {
    type: 'bounce',
    occurred_at: NOW,
    email: 'fuzz@prospect.example',
    message_id: '<m1@touchbase>',
    subject: 'Re: hi',
    text: 'no',
    bounce: { hard: true, status: '5.1.1', reason: 'unknown user' },
  },
  smartlead: {
    event_type: 'EMAIL_REPLY',
    stats_id: 'st_1',
    event_timestamp: NOW,
    to_email: 'fuzz@prospect.example',
    sl_lead_email: 'fuzz@prospect.example',
    subject: 'Re: hi',
    reply_message: { message_id: '<r1@x>', text: 'no thanks' },
  },
  lemlist: {
    _id: 'act_1',
    type: 'emailsReplied',
    createdAt: NOW,
    leadEmail: 'fuzz@prospect.example',
    messageId: '<m1@touchbase>',
    text: 'not interested',
    errorMessage: 'mailbox full',
  },
  linkedin: {
    id: 'li_1',
    type: 'message_received',
    occurred_at: NOW,
    profile_url: 'https://www.linkedin.com/in/fuzz',
    text: 'no thanks',
  },
  unipile: {
    event: 'message_received',
    account_id: 'acc_1',
    account_type: 'LINKEDIN',
    chat_id: 'chat_1',
    message_id: 'msg_1',
    message: 'no thanks',
    timestamp: NOW,
    sender: { attendee_provider_id: 'ACoA1', attendee_profile_url: 'https://www.linkedin.com/in/fuzz' },
  },
  hubspot: [
    {
      eventId: 1,
      subscriptionType: 'contact.propertyChange',
      occurredAt: 1767225600000,
      objectId: 123,
      propertyName: 'email',
      propertyValue: 'new@prospect.example',
    },
  ],
};

/** A raw RFC 822 message for the inbound endpoint, with hostile header values and body. */
export const inboundMessageOf: fc.Arbitrary<string> = fc
  .record({
    from: hostileString(200),
    subject: hostileString(200),
    id: hostileString(100),
    body: hostileString(2000),
  })
  .map(
    (m) =>
      `From: ${m.from}\r\nTo: sdr@touchbase.example\r\nSubject: Re: ${m.subject}\r\nMessage-ID: <${m.id}@x>\r\nIn-Reply-To: <m1@touchbase>\r\n\r\n${m.body}\r\n`,
  );
