import { z } from 'zod';

/** A TCP port; 0 picks a free one. */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
/** A boolean written `true`/`false`, `1`/`0` or `yes`/`no`. */
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');
