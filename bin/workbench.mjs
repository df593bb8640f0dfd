#!/usr/bin/env node
// Launcher for the `workbench` CLI. The CLI is TypeScript run by Node 24's type stripping (the Node
// Electron embeds, with node:sqlite); when started by an older Node, re-run on the pinned Node 24.
// The bundle (out/cli/workbench.mjs, `npm run build:cli`) is used only while it is newer than every
// source file; otherwise the sources run directly.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(`workbench needs Node 24 or newer (this is ${process.version}); run \`npm ci\` to get the pinned one\n`);
    process.exit(1);
  }
  const r = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? (r.signal ? 128 + 15 : 1));
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function freshBundle() {
  if (process.env.WORKBENCH_FROM_SOURCE) return undefined;
  const bundle = join(root, 'out', 'cli', 'workbench.mjs');
  if (!existsSync(bundle)) return undefined;
  const built = statSync(bundle).mtimeMs;
  const sources = Math.max(newestMtime(join(root, 'src', 'main')), newestMtime(join(root, 'src', 'shared')), statSync(join(root, 'package-lock.json')).mtimeMs);
  return built >= sources ? bundle : undefined;
}

// Node's compile cache keeps each module compiled (and type-stripped) between runs, keyed by content;
// without it every start from source strips and compiles every TypeScript file again. Best effort.
try {
  module.enableCompileCache?.(join(root, 'node_modules', '.cache', 'workbench-compile'));
} catch {
  // no cache: slower start, same behaviour
}
const bundle = freshBundle();
const { main } = await import(bundle ? pathToFileURL(bundle).href : '../src/main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
