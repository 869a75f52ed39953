/**
 * The monorepo's boundaries, checked by `npm run lint` (dependency-cruiser).
 * Paths are relative to the repository root; workspace packages resolve through
 * their node_modules symlinks to `packages/<name>/src` and `apps/<name>/src`.
 *
 * - core is the domain: pure functions, no I/O library, no other workspace
 *   package (its `process.env` ban is Biome's `noProcessEnv`, see biome.json).
 * - an app never imports another app; a package never imports an app or the cli
 *   (a use-cases package may import db, queues and core, like an app).
 * - Prisma (its client, the generated one) is packages/db's alone. `pg` is too,
 *   except where a database is made or inspected beside the code under test:
 *   packages/testing (creates and drops the test databases), tests, and bench.
 * - no import cycle.
 */

/** I/O libraries, and Node's I/O modules, that the domain must not reach. */
const IO_LIBRARIES = [
  'fastify',
  '@fastify/',
  'fastify-',
  'bullmq',
  'ioredis',
  'pg',
  'pg-',
  '@prisma/',
  'prisma',
  '.prisma/',
  'pino',
  'pino-',
  'prom-client',
  'undici',
  'nodemailer',
  'smtp-server',
  'bottleneck',
  '@bull-board/',
];
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const IO_PACKAGE_PATH = `(^|/)node_modules/(${IO_LIBRARIES.map((n) =>
  n.endsWith('/') || n.endsWith('-') ? `${escapeRegExp(n)}[^/]+` : escapeRegExp(n),
).join('|')})/`;
const IO_NODE_MODULES =
  '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|dns|dns/promises|tls|cluster|worker_threads|process|os|readline|inspector|v8|vm)$';

/** Where `pg` may be imported besides packages/db. */
const PG_ALLOWED = '^(packages/db/|packages/testing/|test/|bench/|(apps|packages)/[^/]+/test/|cli/test/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-no-io',
      severity: 'error',
      comment:
        'packages/core is pure domain logic: no I/O library and no Node I/O module. Take the effect as an argument (a clock, a repository port) instead.',
      from: { path: '^packages/core/src/' },
      to: { path: [IO_PACKAGE_PATH, IO_NODE_MODULES] },
    },
    {
      name: 'core-no-workspace-package',
      severity: 'error',
      comment: 'packages/core depends on no other workspace package (db, queues, providers, ... do I/O).',
      from: { path: '^packages/core/src/' },
      to: { path: '^(packages/|apps/|cli/)', pathNot: '^packages/core/' },
    },
    {
      name: 'simulator-pure',
      severity: 'error',
      comment:
        'packages/simulator is pure like core (a dry run reads and writes nothing): no I/O library, no Node I/O module, and of the workspace only core.',
      from: { path: '^packages/simulator/src/' },
      to: {
        path: [IO_PACKAGE_PATH, IO_NODE_MODULES, '^(packages/|apps/|cli/)'],
        pathNot: '^packages/(core|simulator)/',
      },
    },
    {
      name: 'no-app-to-app',
      severity: 'error',
      comment:
        'An app never imports another app: share through a package (core, db, queues, a use-cases package). Only the cli composes apps.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'packages-no-app',
      severity: 'error',
      comment: 'A package never imports an app or the cli: apps depend on packages, not the other way round.',
      from: { path: '^packages/' },
      to: { path: '^(apps|cli)/' },
    },
    {
      name: 'prisma-only-in-db',
      severity: 'error',
      comment:
        'Only packages/db imports Prisma (@prisma/*, prisma, the generated client): everything else goes through its repositories.',
      from: { pathNot: '^packages/db/' },
      to: { path: ['(^|/)node_modules/(@prisma/[^/]+|prisma|\\.prisma)/', '^packages/db/src/generated/'] },
    },
    {
      name: 'pg-only-in-db',
      severity: 'error',
      comment:
        'Only packages/db imports pg; packages/testing (test databases), tests and bench may, to make or inspect a database.',
      from: { pathNot: PG_ALLOWED },
      to: { path: '(^|/)node_modules/(pg|pg-[^/]+|@types/pg)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: break it by moving the shared part to its own module.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^packages/db/src/generated/'] },
    // Our own build output, if any (node_modules' dist folders must stay: they are what packages resolve to).
    exclude: { path: '^((apps|packages)/[^/]+/|cli/)dist/' },
    // Type-only imports count: `import type pg from 'pg'` in an app is still a breach.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
