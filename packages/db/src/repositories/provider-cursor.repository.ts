import type pg from 'pg';

/** Where each provider's event stream was last read (`provider_cursor`), for pull recovery. */
export class ProviderCursorRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The last position read from a provider's event stream, or null before the first pull. */
  async cursor(provider: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ cursor: string }>(
      'SELECT cursor FROM provider_cursor WHERE provider = $1',
      [provider],
    );
    return rows[0]?.cursor ?? null;
  }

  /** Moves a provider's cursor forward (never back: two recoveries at once keep the furthest). */
  async advance(provider: string, cursor: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO provider_cursor (provider, cursor, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (provider) DO UPDATE SET cursor = EXCLUDED.cursor, updated_at = now()
       WHERE CASE WHEN provider_cursor.cursor ~ '^[0-9]+$' AND EXCLUDED.cursor ~ '^[0-9]+$'
                  THEN EXCLUDED.cursor::numeric > provider_cursor.cursor::numeric
                  ELSE EXCLUDED.cursor <> provider_cursor.cursor END`,
      [provider, cursor],
    );
  }
}
