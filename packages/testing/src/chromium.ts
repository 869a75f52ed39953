/** Debian's Chromium, which the browser tests drive through playwright-core (`npm run setup` installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * The flags every browser test launches it with: no sandbox (containers), no GPU, and
 * nothing that reaches the network on its own (QUIC, updates, sync, background fetches).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
