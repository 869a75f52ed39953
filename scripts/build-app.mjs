// `npm run build` in an app: bundles its main.ts and the workspace packages it uses
// (TypeScript sources) into one ESM file, dist/main.mjs, that plain `node` runs
// without tsx. npm dependencies stay external: they are installed beside it.
// esbuild comes with tsx; it does in milliseconds what tsc's emit plus path
// rewriting would need a build graph for.
import { build } from 'esbuild';

const entry = process.argv[2] ?? 'src/main.ts';
await build({
  entryPoints: [entry],
  outfile: 'dist/main.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Some bundled CommonJS helpers call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __tbCreateRequire } from 'node:module'; const require = __tbCreateRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'external-npm-packages',
      setup(b) {
        // Bare imports are npm packages (external) unless they are our workspaces.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@touchbase/') || args.path === 'touchbase'
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});
