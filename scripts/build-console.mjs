// Bundles the operator console (apps/api/console: Preact and Chart.js) into
// apps/api/console/dist with esbuild, at install time (postinstall) and by
// `npm run setup` when the bundle is missing or older than its sources. Everything
// comes from node_modules: no CDN, no network, so it works offline. The bundle is
// not committed (dist/ is ignored): it is built from the locked dependencies.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../apps/api/console/', import.meta.url));
const out = join(root, 'dist');

/** The newest modification time of the files under `dir`. */
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Whether the bundle is missing or older than a source file. */
export function consoleStale() {
  const js = join(out, 'console.js');
  return !existsSync(js) || statSync(js).mtimeMs < newest(join(root, 'src'));
}

export async function buildConsole() {
  // Imported here: esbuild is a dev dependency, absent before the first install.
  const { build } = await import('esbuild');
  await build({
    entryPoints: { console: join(root, 'src/main.tsx') },
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--if-stale') && !consoleStale()) process.exit(0);
  try {
    await buildConsole();
  } catch (err) {
    // An install without dev dependencies (`npm install --omit=dev`) has no esbuild: the
    // API still runs and /console says how to build it; a broken source still fails here.
    if (process.argv.includes('--optional') && err?.code === 'ERR_MODULE_NOT_FOUND') {
      console.log('touchbase: esbuild is not installed, the console is not built (npm run build:console)');
      process.exit(0);
    }
    throw err;
  }
  console.log('touchbase: console built (apps/api/console/dist)');
}
