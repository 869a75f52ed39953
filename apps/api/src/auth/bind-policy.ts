import { ConfigError } from '@touchbase/config';

/** Whether an address only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** How the API may listen, decided at boot from API_HOST and the credentials that exist. */
export type BindDecision = {
  host: string;
  /** No credential exists: every request is let in, which only loopback makes acceptable. */
  open: boolean;
};

/**
 * Closed by default: without ADMIN_TOKEN and without a live API key in the
 * database, the API only listens on loopback; asked to listen elsewhere, it
 * refuses to start, naming the variables. "No key" means no row of `api_key`
 * without a revocation when the API starts (keys made later close the open
 * mode at once, see the guard).
 * @throws ConfigError naming API_HOST and ADMIN_TOKEN.
 */
export function decideBinding(opts: {
  host: string;
  hasAdminToken: boolean;
  activeKeys: number;
}): BindDecision {
  const hasCredentials = opts.hasAdminToken || opts.activeKeys > 0;
  if (hasCredentials) return { host: opts.host, open: false };
  if (isLoopback(opts.host)) return { host: opts.host, open: true };
  throw new ConfigError([
    {
      variable: 'API_HOST',
      message: `${opts.host} is not a loopback address, and the API has no credentials: set ADMIN_TOKEN, or create a key with \`touchbase keys create --name NAME --scope admin\`, or leave API_HOST at 127.0.0.1`,
    },
    { variable: 'ADMIN_TOKEN', message: 'is not set (and the database holds no live API key)' },
  ]);
}
