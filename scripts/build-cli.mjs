// Bundles the `workbench` CLI into out/cli/workbench.mjs (one file: faster start, less memory than
// loading ~200 TypeScript modules). bin/workbench.mjs uses it only while it is newer than every
// source file, so a stale bundle never runs. A failed build warns and leaves the source path working.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  await build({
    entryPoints: [join(root, 'src/main/cli/main.ts')],
    outfile: join(root, 'out/cli/workbench.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // CommonJS dependencies (inside openai, yaml…) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __wbCreateRequire } from 'node:module'; const require = __wbCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    legalComments: 'none',
  });
} catch (err) {
  console.warn(`build-cli: could not bundle the CLI (${err instanceof Error ? err.message : err}); the CLI will run from source`);
}
