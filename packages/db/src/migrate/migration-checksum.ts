import { createHash } from 'node:crypto';

/**
 * The checksum Prisma Migrate stores in `_prisma_migrations.checksum`: the SHA-256 of the
 * migration.sql bytes, as 64 lowercase hex digits.
 */
export function migrationChecksum(script: Buffer | string): string {
  return createHash('sha256').update(script).digest('hex');
}

/**
 * Whether `script` matches a stored checksum, by Prisma's rule: a checkout whose line
 * endings git rewrote (CRLF on Windows) still matches, so the same migration is not
 * reported as modified on another machine.
 */
export function checksumMatches(script: Buffer, checksum: string): boolean {
  if (migrationChecksum(script) === checksum) return true;
  const text = script.toString('utf8');
  const lf = text.replaceAll('\r\n', '\n');
  return migrationChecksum(lf) === checksum || migrationChecksum(lf.replaceAll('\n', '\r\n')) === checksum;
}
