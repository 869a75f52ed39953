import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** Every key starts with it, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'tb_';

/**
 * A new key: `tb_` and 32 random bytes in base64url. The key is shown once and
 * only {@link hashApiKey} of it is stored.
 */
export function mintApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The stored form of a key: its SHA-256, hex. A fast hash is enough here because
 * keys are 256 random bits, not passwords: no dictionary, and no guess can be
 * tested faster than 2^256 tries. Slow hashes (bcrypt, argon2) protect low-entropy
 * secrets; they would add tens of milliseconds to every request for nothing, and
 * the hash being deterministic lets a request find its key by index.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Actors the API itself uses in the audit log; no key may take their name. */
const RESERVED_NAMES = new Set(['admin', 'local', 'anonymous']);

/**
 * A key's name: what the audit log shows as the actor, so a person can tell who
 * acted (`ci-import`, `jane@acme.example`).
 */
export const ApiKeyNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._@+-]*$/, 'letters, digits, space and . _ @ + - only')
  .refine((name) => !RESERVED_NAMES.has(name.toLowerCase()), 'admin, local and anonymous are reserved');
