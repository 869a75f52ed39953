import type { z } from 'zod';

/** Raised at boot when the environment does not parse; the message names every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'invalid_config';

  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n')}\nSee .env.example for every variable.`,
    );
  }

  /** Builds the error from a zod failure over the environment object. */
  static fromZod(error: z.ZodError): ConfigError {
    return new ConfigError(
      error.issues.map((issue) => ({
        variable: issue.path.map(String).join('.') || '(environment)',
        message: issue.message,
      })),
    );
  }
}
