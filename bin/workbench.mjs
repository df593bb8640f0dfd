#!/usr/bin/env node
// Launcher for the `workbench` CLI. The CLI is TypeScript run by Node 24's type stripping (the Node
// Electron embeds, with node:sqlite); when started by an older Node, re-run on the pinned Node 24.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  const pinned = join(here, '..', 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(`workbench needs Node 24 or newer (this is ${process.version}); run \`npm ci\` to get the pinned one\n`);
    process.exit(1);
  }
  const r = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? (r.signal ? 128 + 15 : 1));
}
const { main } = await import('../src/main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
