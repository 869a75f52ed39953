import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger };

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Keys whose values are personal data or message content and never reach a log. */
const REDACTED_KEYS = [
  'email',
  'to',
  'from',
  'address',
  'subject',
  'body',
  'text',
  'html',
  'raw',
  'firstName',
  'lastName',
  'password',
  'secret',
  'token',
  'authorization',
];

/** Replaces e-mail addresses inside any string, so one interpolated by mistake is still hidden. */
export function scrubEmails(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(EMAIL, '[email]');
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((v) => scrubEmails(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubEmails(v, depth + 1);
  return out;
}

/**
 * Creates the structured logger: JSON lines, e-mail addresses and bodies redacted,
 * pretty only when a person is watching a terminal and pino-pretty is installed.
 */
export function createLogger(opts: {
  name: string;
  level?: string;
  destination?: pino.DestinationStream;
}): Logger {
  const options: LoggerOptions = {
    name: opts.name,
    level: opts.level ?? 'info',
    redact: {
      paths: [
        ...REDACTED_KEYS,
        ...REDACTED_KEYS.map((k) => `*.${k}`),
        'req.headers.authorization',
        'req.headers["webhook-signature"]',
      ],
      censor: '[redacted]',
    },
    formatters: { log: (obj) => scrubEmails(obj) as Record<string, unknown> },
    hooks: {
      // Message strings should be constant, but scrub them too: a stray address in
      // an error message must not reach the log.
      logMethod(args, method) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? a.replace(EMAIL, '[email]') : a));
        return method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
    serializers: {
      err: (err: Error) => scrubEmails(pino.stdSerializers.err(err)),
    },
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}

/** The logging calls a unit of work makes (what `deferredChild` offers). */
export type LogCalls = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/**
 * A child logger made only when something is logged: a hot path that binds its
 * ids up front (the sender, per touch) pays for a pino child (about 20 µs with the
 * redaction paths) only on the lines it actually writes.
 */
export function deferredChild(logger: Logger, bindings: Record<string, unknown>): LogCalls {
  let child: Logger | undefined;
  // A line below the level writes nothing, so it makes no child either.
  const at =
    <L extends keyof LogCalls>(level: L) =>
    (...args: Parameters<Logger[L]>) => {
      if (!logger.isLevelEnabled(level)) return;
      child ??= logger.child(bindings);
      (child[level] as (...a: Parameters<Logger[L]>) => void)(...args);
    };
  return {
    debug: at('debug') as Logger['debug'],
    info: at('info') as Logger['info'],
    warn: at('warn') as Logger['warn'],
    error: at('error') as Logger['error'],
  };
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * A request's logger that becomes a pino child only when the request writes a line at
 * an enabled level: Fastify makes one child per request (its `reqId` binding), and a
 * pino child with the redaction paths costs a few µs, which a webhook that logs nothing
 * paid on every delivery. Lines and bindings are the child's when one is written.
 */
export class LazyChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: Record<string, unknown> = {},
  ) {}

  /** The real child, made at the first line written. */
  private get real(): Logger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? (this.options.level as string | undefined) ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.made ? this.made.isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger {
    return this.real.child(bindings, options);
  }

  silent(): void {}

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  private write(level: (typeof LEVELS)[number], args: unknown[]): void {
    // A level the child would not write makes no child (its own level, when given, decides).
    if (!this.made && this.options.level === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }
}

/**
 * Fastify's `childLoggerFactory` for {@link LazyChildLogger}: pass it as the server's
 * `childLoggerFactory` so a request that logs nothing makes no pino child.
 */
export function lazyChildLoggerFactory(
  logger: Logger,
  bindings: Record<string, unknown>,
  options: Record<string, unknown>,
): Logger {
  return new LazyChildLogger(logger, bindings, options) as unknown as Logger;
}
