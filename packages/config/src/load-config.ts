import { z } from 'zod';
import { ConfigError } from './config-error.js';

/**
 * Parses the environment with the given fragments, once at boot. Empty strings
 * count as unset so `.env` lines like `ADMIN_TOKEN=` fall back to defaults.
 * @throws ConfigError naming every variable that is missing or malformed.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<z.ZodObject<S>> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = z.object(shape).safeParse(cleaned);
  if (!result.success) throw ConfigError.fromZod(result.error);
  return result.data;
}
