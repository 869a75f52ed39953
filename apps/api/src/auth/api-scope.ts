import type { ApiKeyScope } from '@touchbase/db';

/** What a key may do. Each scope includes the ones before it: admin ⊃ write ⊃ read. */
export type ApiScope = ApiKeyScope;

/** The scopes, weakest first. */
export const API_SCOPES = ['read', 'write', 'admin'] as const satisfies readonly ApiScope[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a key needs for this route. Every route inside the guarded scope
     * declares one (the API refuses to start otherwise): `read` for reads, `write`
     * for changes, `admin` for keys, Bull Board and account-wide switches.
     */
    scope?: ApiScope;
  }
}

/** Whether a key granted `granted` may call a route that needs `required`. */
export function scopeAllows(granted: ApiScope, required: ApiScope): boolean {
  return API_SCOPES.indexOf(granted) >= API_SCOPES.indexOf(required);
}

/** Parses a scope given by a person (CLI flag, request body); undefined when it is none. */
export function parseScope(value: string | undefined): ApiScope | undefined {
  return API_SCOPES.find((s) => s === value);
}
