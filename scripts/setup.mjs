// The first step of `npm run demo` and `npm test` on a fresh clone: installs the
// dependencies when they are missing or older than package-lock.json, then checks
// that PostgreSQL and Redis answer, saying how to get them when they do not.
// Plain Node, no dependencies: it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const marker = `${root}node_modules/.package-lock.json`;
const lock = `${root}package-lock.json`;

if (!existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000)) {
  console.log('touchbase: installing dependencies...');
  // `npm install`, not `npm ci`: the lockfile was written against a registry mirror
  // without other platforms' optional binaries (biome, turbo), which `npm ci` reports
  // as out of sync. `npm install` still installs the locked versions.
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!existsSync(`${root}packages/db/src/generated/prisma/client.ts`)) {
  const r = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The operator console's bundle (apps/api/console/dist), built by postinstall; again
// here when its sources changed since (a pull without a new lockfile).
{
  const r = spawnSync(process.execPath, ['scripts/build-console.mjs', '--if-stale', '--optional'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The browser login test (apps/api/test/browser-login.e2e.test.ts) drives Debian's
// Chromium. Installed here only when missing, by apt-get as root, never for the demo;
// otherwise a line says why and that test is skipped. Already installed: one stat.
const CHROMIUM = '/usr/bin/chromium';
if (process.env.npm_lifecycle_event !== 'demo' && !existsSync(CHROMIUM)) {
  const skipped = 'the browser login test will be skipped';
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!hasApt) console.log(`touchbase: ${CHROMIUM} is missing and apt-get is not available: ${skipped}.`);
  else if (process.getuid?.() !== 0)
    console.log(`touchbase: ${CHROMIUM} is missing (sudo apt-get install -y chromium): ${skipped}.`);
  else {
    console.log('touchbase: installing Chromium (apt-get) for the browser login test...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
    if (!(apt(['update', '-q']) && apt(['install', '-y', '-q', 'chromium'])))
      console.log(`touchbase: apt-get could not install chromium: ${skipped}.`);
  }
}

function reachable(url, fallbackPort) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || fallbackPort) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

// .env, as the services read it (the environment wins over it): its DATABASE_URL and
// REDIS_URL are the servers to check.
if (existsSync(`${process.cwd()}/.env`)) process.loadEnvFile(`${process.cwd()}/.env`);
const pgUrl =
  process.env.DATABASE_URL ??
  process.env.TEST_DATABASE_SERVER_URL ??
  'postgresql://postgres@127.0.0.1:5432/touchbase';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const missing = [];
if (!(await reachable(pgUrl, 5432))) missing.push(`PostgreSQL at ${new URL(pgUrl).host} (DATABASE_URL)`);
if (!(await reachable(redisUrl, 6379))) missing.push(`Redis at ${new URL(redisUrl).host} (REDIS_URL)`);
if (missing.length > 0) {
  console.error(
    `touchbase: cannot reach ${missing.join(' and ')}.\n` +
      'Start them with `docker compose up -d redis postgres`, or install the OS packages\n' +
      '(Debian/Ubuntu: apt-get install postgresql redis-server) and start them;\n' +
      'set DATABASE_URL / REDIS_URL if they run elsewhere.',
  );
  process.exit(1);
}
