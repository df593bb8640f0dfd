#!/usr/bin/env node
// Launcher for the `workbench` CLI. The CLI is TypeScript run by Node 24's type stripping (the Node
// Electron embeds, with node:sqlite); when started by an older Node, re-run on the pinned Node 24.
// The bundle (out/cli/workbench.mjs, `npm run build:cli`) is used only while it is newer than every
// source file; otherwise the sources run directly. A child started for the key handover starts from
// the CLI's startup snapshot (out/cli/workbench.blob, scripts/cli-snapshot.mjs) under the same rule.
// bin/workbench, the installed command, starts the snapshot without this launcher when it can.
// The API key never sits in the environment of the CLI process, the parent of every command the agent
// runs (`/proc/$PPID/environ`): with secret-looking variables set, this launcher starts the CLI as a
// child without them and hands them over through an inherited pipe (src/main/cli/handover.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI_BUILD_SOURCES } from '../scripts/cli-build-fresh.mjs';

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

// The newest modification time of the sources a build is made from. The walk stats a few hundred
// files: it runs on the thread pool, beside the bundle's load.
let newestSource;
function newestSourceTime() {
  const newest = async (dir) => {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    const times = await Promise.all(files.map((f) => stat(f).then((s) => s.mtimeMs)));
    return Math.max(0, ...times);
  };
  newestSource ??= Promise.all([
    ...CLI_BUILD_SOURCES.dirs.map((d) => newest(join(root, d))),
    ...CLI_BUILD_SOURCES.files.map((f) => stat(join(root, f)).then((s) => s.mtimeMs)),
  ]).then((times) => Math.max(...times));
  return newestSource;
}

// Whether a build is at least as new as every source file (a stale build must never run).
async function buildIsFresh(file) {
  const [built, sources] = await Promise.all([stat(file).then((s) => s.mtimeMs), newestSourceTime()]);
  return built >= sources;
}

// Whether `node` can start from the snapshot: not asked to run the sources, the snapshot fresh, written
// by this very binary (named in workbench.blob.node) and newer than its last change — a snapshot
// only loads in the Node version that wrote it.
const snapshot = join(root, 'out', 'cli', 'workbench.blob');
async function snapshotUsable(node) {
  if (process.env.WORKBENCH_FROM_SOURCE) return false;
  try {
    if (readFileSync(`${snapshot}.node`, 'utf8').trim() !== realpathSync(node)) return false;
    if (statSync(node).ctimeMs > statSync(snapshot).mtimeMs) return false;
    return await buildIsFresh(snapshot);
  } catch {
    return false;
  }
}

// V8 flags of a CLI process, as bin/workbench starts it: a young generation of at most 2 MiB a half
// keeps a run on pages it has already touched; not for `serve`, a long-lived process
// (docs/performance.md#a-young-generation-that-stays-small).
const cliNodeFlags = (command) => (command === 'serve' ? [] : ['--max-semi-space-size=2']);

// The arguments that start the CLI on `node` in a new process: the snapshot, or this launcher again.
async function cliStart(node) {
  const start = (await snapshotUsable(node)) ? ['--snapshot-blob', snapshot, '--'] : [fileURLToPath(import.meta.url)];
  return [...cliNodeFlags(process.argv[2]), ...start];
}

// Runs the CLI on `node` as a child without the secret variables; never resolves (exits with the child).
async function runWithoutSecrets(secretNames, node) {
  const env = { ...process.env };
  const handed = {};
  for (const name of secretNames) {
    handed[name] = env[name];
    delete env[name];
  }
  env[HANDOVER_FD_VARIABLE] = '3';
  const execArgv = node === process.execPath ? process.execArgv : [];
  const child = spawn(node, [...execArgv, ...(await cliStart(node)), ...process.argv.slice(2)], {
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
  const r = spawnSync(pinned, [...(await cliStart(pinned)), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? (r.signal ? 128 + 15 : 1));
}

if (secretNames.length > 0) await runWithoutSecrets(secretNames, process.execPath);

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
    buildIsFresh(bundle).catch(() => false),
    import(pathToFileURL(bundle).href),
  ]);
  cli = fresh ? loaded : await import(source);
} else cli = await import(source);
const { runAsProcess } = cli;
process.exitCode = await runAsProcess(process.argv.slice(2));
