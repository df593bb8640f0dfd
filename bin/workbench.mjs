#!/usr/bin/env node
// Launcher for the `workbench` CLI. The CLI is TypeScript run by Node 24's type stripping (the Node
// Electron embeds, with node:sqlite); when started by an older Node, re-run on the pinned Node 24.
// The bundle (out/cli/workbench.mjs, `npm run build:cli`) is used only while it is newer than every
// source file; otherwise the sources run directly.
// The API key never sits in the environment of the CLI process, the parent of every command the agent
// runs (`/proc/$PPID/environ`): with secret-looking variables set, this launcher starts the CLI as a
// child without them and hands them over through an inherited pipe (src/main/cli/handover.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The same names src/main/env/child-env.ts treats as credentials.
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;
const HANDOVER_FD_VARIABLE = 'WORKBENCH_HANDOVER_FD';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

// True when a Ctrl+C from the terminal reaches the child by itself: this process is in the
// terminal's foreground process group, which the child shares. Forwarding it again would cancel twice.
function terminalSignalsChild() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const [, , pgrp, , , tpgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return pgrp === tpgid;
  } catch {
    return Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
  }
}

// Runs the CLI on `node` as a child without the secret variables; never resolves (exits with the child).
function runWithoutSecrets(secretNames, node) {
  const env = { ...process.env };
  const handed = {};
  for (const name of secretNames) {
    handed[name] = env[name];
    delete env[name];
  }
  env[HANDOVER_FD_VARIABLE] = '3';
  const execArgv = node === process.execPath ? process.execArgv : [];
  const child = spawn(node, [...execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    env,
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
  });
  // Kept open while this launcher lives: the child stops when it closes (the launcher was killed).
  child.stdio[3].on('error', () => {});
  child.stdio[3].write(`${JSON.stringify(handed)}\n`);
  const forward = (sig) => {
    if (sig === 'SIGINT' && terminalSignalsChild()) return;
    child.kill(sig);
  };
  for (const sig of FORWARDED) process.on(sig, forward);
  child.on('error', (err) => {
    process.stderr.write(`workbench: cannot start the CLI: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const sig of FORWARDED) process.off(sig, forward);
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
  return new Promise(() => {});
}

// Set in the child: the variables are already out of its environment.
const secretNames =
  process.env[HANDOVER_FD_VARIABLE] === undefined ? Object.keys(process.env).filter((name) => SECRET_NAME.test(name)) : [];
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(`workbench needs Node 24 or newer (this is ${process.version}); run \`npm ci\` to get the pinned one\n`);
    process.exit(1);
  }
  if (secretNames.length > 0) await runWithoutSecrets(secretNames, pinned);
  const r = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? (r.signal ? 128 + 15 : 1));
}

if (secretNames.length > 0) await runWithoutSecrets(secretNames, process.execPath);

// Whether the bundle is at least as new as every source file (a stale bundle must never run). The walk
// stats a few hundred files: it runs on the thread pool while the bundle loads, off the start's path.
async function bundleIsFresh(bundle) {
  const newest = async (dir) => {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    const times = await Promise.all(files.map((f) => stat(f).then((s) => s.mtimeMs)));
    return Math.max(0, ...times);
  };
  const [built, ...sources] = await Promise.all([
    stat(bundle).then((s) => s.mtimeMs),
    newest(join(root, 'src', 'main')),
    newest(join(root, 'src', 'shared')),
    stat(join(root, 'package-lock.json')).then((s) => s.mtimeMs),
  ]);
  return built >= Math.max(...sources);
}

// Node's compile cache keeps each module compiled (and type-stripped) between runs, keyed by content;
// without it every start from source strips and compiles every TypeScript file again. Best effort.
try {
  module.enableCompileCache?.(join(root, 'node_modules', '.cache', 'workbench-compile'));
} catch {
  // no cache: slower start, same behaviour
}
const bundle = join(root, 'out', 'cli', 'workbench.mjs');
const source = '../src/main/cli/main.ts';
let cli;
if (!process.env.WORKBENCH_FROM_SOURCE && existsSync(bundle)) {
  const [fresh, loaded] = await Promise.all([
    bundleIsFresh(bundle).catch(() => false),
    import(pathToFileURL(bundle).href),
  ]);
  cli = fresh ? loaded : await import(source);
} else cli = await import(source);
const { runAsProcess } = cli;
process.exitCode = await runAsProcess(process.argv.slice(2));
