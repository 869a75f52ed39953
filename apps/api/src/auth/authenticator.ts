import { createHash } from 'node:crypto';
import type { ApiKeyRepository } from '@touchbase/db';
import { secretMatches } from '@touchbase/providers';
import { hashApiKey } from './api-key.js';
import type { ApiScope } from './api-scope.js';

/** Who a request acts as, once its credentials are checked. */
export type Principal = {
  /** The audit log's actor: the key's name, `admin` for ADMIN_TOKEN, `local` in the open mode. */
  actor: string;
  scope: ApiScope;
  /** What the rate limit counts by: the key's id, `admin-token` or `local`. */
  keyId: string;
};

/** The id sessions opened with ADMIN_TOKEN name, and its rate-limit bucket. */
export const ADMIN_TOKEN_KEY_ID = 'admin-token';

/**
 * Turns credentials into a {@link Principal}: ADMIN_TOKEN (compared in constant
 * time) or a key of the `api_key` table (found by its hash, live only).
 */
export class Authenticator {
  /** Once a credential existed, the open mode never comes back (not even if every key is revoked). */
  private closed: boolean;

  constructor(
    private readonly apiKeys: Pick<ApiKeyRepository, 'findActiveByHash' | 'findActiveById' | 'countActive'>,
    private readonly adminToken: string | undefined,
  ) {
    this.closed = Boolean(adminToken);
  }

  /** The principal of a presented secret (a Bearer token or the key typed in the login form). */
  async fromSecret(secret: string): Promise<Principal | null> {
    if (this.adminToken && secretMatches(secret, this.adminToken)) return this.admin();
    const key = await this.apiKeys.findActiveByHash(hashApiKey(secret));
    return key ? { actor: key.name, scope: key.scope, keyId: key.id } : null;
  }

  /** The principal a browser session names: its key must still be live (a revocation ends it). */
  async fromSession(session: {
    keyId: string;
    adminFingerprint?: string | undefined;
  }): Promise<Principal | null> {
    if (session.keyId === ADMIN_TOKEN_KEY_ID) {
      const fingerprint = this.adminFingerprint();
      return fingerprint && session.adminFingerprint === fingerprint ? this.admin() : null;
    }
    const key = await this.apiKeys.findActiveById(session.keyId);
    return key ? { actor: key.name, scope: key.scope, keyId: key.id } : null;
  }

  /**
   * Whether a request without credentials is let in: only while neither
   * ADMIN_TOKEN nor any key exists (the API then listens on loopback only, see
   * decideBinding). The first key created closes it for good.
   */
  async isOpen(): Promise<boolean> {
    if (this.closed) return false;
    if ((await this.apiKeys.countActive()) > 0) this.closed = true;
    return !this.closed;
  }

  /**
   * A short digest of ADMIN_TOKEN that its sessions carry, so changing the token
   * ends them; undefined without a token.
   */
  adminFingerprint(): string | undefined {
    if (!this.adminToken) return undefined;
    return createHash('sha256').update(`session:${this.adminToken}`).digest('hex').slice(0, 32);
  }

  private admin(): Principal {
    return { actor: 'admin', scope: 'admin', keyId: ADMIN_TOKEN_KEY_ID };
  }
}

/** The principal of the open mode (no credential exists; loopback only). */
export const LOCAL_PRINCIPAL: Principal = { actor: 'local', scope: 'admin', keyId: 'local' };
