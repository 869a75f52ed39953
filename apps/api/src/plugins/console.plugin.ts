import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendProblem } from '@touchbase/runtime';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

/**
 * Where `scripts/build-console.mjs` writes the bundle: beside the sources when run
 * from them (tsx), or under the working directory (a bundled `dist/main.mjs`, the image).
 */
function defaultConsoleDir(): string {
  const candidates = [
    fileURLToPath(new URL('../../console/dist/', import.meta.url)),
    join(process.cwd(), 'apps/api/console/dist'),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'console.js'))) ?? (candidates[0] as string);
}

/** What the page may load: its own script and style, calls to this origin; nothing else, no frame. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'console.js.map': 'application/json; charset=utf-8',
  'console.css.map': 'application/json; charset=utf-8',
  'console.js.LEGAL.txt': 'text/plain; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>touchbase console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<script type="module" src="/console/assets/console.js"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript. The API and its documentation are at <a href="/docs">/docs</a>.</noscript>
</body>
</html>
`;

export type ConsolePluginOptions = { dir?: string | undefined };

/**
 * The operator console at `/console`: one page (a Preact app, built by
 * `scripts/build-console.mjs` at install) and its two assets. Registered inside the
 * guarded scope with the read scope, like Bull Board: without a session the browser
 * gets the login form. The app reads and acts through the public `/v1` routes only,
 * with the same cookie, so every action still needs the scope its route declares.
 */
export const consolePlugin: FastifyPluginAsync<ConsolePluginOptions> = async (app, opts) => {
  const dir = opts.dir ?? defaultConsoleDir();

  const notBuilt = (reply: FastifyReply) =>
    sendProblem(reply, {
      status: 503,
      title: 'The console is not built',
      code: 'console_not_built',
      detail: 'run `npm run setup` (or `node scripts/build-console.mjs`) to bundle apps/api/console',
    });

  const page = async (_req: unknown, reply: FastifyReply) => {
    if (!existsSync(join(dir, 'console.js'))) return notBuilt(reply);
    return reply
      .header('content-security-policy', CSP)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(PAGE);
  };
  app.get('/console', { schema: { hide: true } }, page);
  // Every path under /console is a page of the app: its router reads the path.
  app.get('/console/*', { schema: { hide: true } }, page);

  app.get<{ Params: { file: string } }>(
    '/console/assets/:file',
    { schema: { hide: true } },
    async (req, reply) => {
      const type = ASSETS[req.params.file];
      if (!type)
        return sendProblem(reply, {
          status: 404,
          title: 'Not Found',
          code: 'not_found',
          detail: 'no such asset',
        });
      let body: Buffer;
      try {
        body = await readFile(join(dir, req.params.file));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return notBuilt(reply);
        throw err;
      }
      return reply
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .type(type)
        .send(body);
    },
  );
};
