// Bundles the `workbench` CLI into out/cli/workbench.mjs (one file: faster start, less memory than
// loading ~200 TypeScript modules) and its startup snapshot out/cli/workbench.blob
// (scripts/cli-snapshot.mjs). The launchers use them only while they are newer than every source
// file, so a stale build never runs. A failed build warns and leaves the source path working.
import { build } from 'esbuild';
import { buildCliSnapshot } from './cli-snapshot.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// An ESM import of node:http or node:https makes Node build the module's ESM facade at start, which
// reads every export, including the lazy ones that load undici (~50 ms, ~14 MiB). Only `serve`, MCP
// over HTTP and webhooks need them: required through a CommonJS shim, they load on first use.
const lazyHttp = {
  name: 'lazy-node-http',
  setup(b) {
    b.onResolve({ filter: /^(node:)?https?$/ }, (args) =>
      args.namespace === 'lazy-node-http'
        ? { path: args.path, external: true }
        : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-node-http' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-node-http' }, (args) => ({
      contents: `module.exports = require('node:${args.path}');`,
      loader: 'js',
    }));
  },
};

// zod exports every locale (40+ modules, ~20 ms to evaluate); error messages are English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-en' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
try {
  await build({
    entryPoints: [join(root, 'src/main/cli/main.ts')],
    outfile: join(root, 'out/cli/workbench.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // CommonJS dependencies (yaml, ws…) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __wbCreateRequire } from 'node:module'; const require = __wbCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    legalComments: 'none',
    // No comments, no layout: less to parse, and no non-ASCII character left in a comment, which
    // would make V8 keep all 2 MB of source as two-byte text (4 MB).
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [lazyHttp, zodEnglishOnly],
  });
  const noSnapshot = await buildCliSnapshot({ build, root, plugins: [zodEnglishOnly] });
  if (noSnapshot) console.warn(`build-cli: no startup snapshot (${noSnapshot}); the CLI starts from the bundle`);
} catch (err) {
  console.warn(`build-cli: could not bundle the CLI (${err instanceof Error ? err.message : err}); the CLI will run from source`);
}
