// Generates the Prisma client (Rust-free `prisma-client` generator) after install.
// Prisma's CLI wants a schema-engine binary even though `generate` with this
// generator never runs it; where its download host is unreachable we point it at
// any existing file, which is all `generate` needs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';
const bin = `${root}node_modules/.bin/prisma`;
if (!existsSync(bin)) {
  console.error('prisma CLI not installed; run npm install first');
  process.exit(1);
}
const r = spawnSync(bin, ['generate', '--schema', 'prisma/schema.prisma'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
