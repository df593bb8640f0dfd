#!/usr/bin/env node
// Entry of `npm run bench`: runs each group (bench/groups/NAME.ts) in its own Node 24 process, one after
// another (groups never overlap, so they do not disturb each other), then prints a table per group or,
// with --json, one JSON object. Benchmarks measure and report: the exit code is 0 even when goals are missed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatGroup, formatMarkdown } from './lib/format.mjs';

const GROUPS = ['loop', 'hooks', 'grep', 'store', 'ui', 'cli'];
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const json = flag('--json');
const markdown = flag('--markdown');
const quiet = json || markdown;
const quick = flag('--quick');
const verbose = flag('--verbose');
const onlyIdx = argv.indexOf('--only');
const only = onlyIdx >= 0 ? argv[onlyIdx + 1] : undefined;
if (flag('--help')) {
  process.stdout.write(
    `usage: npm run bench -- [--json | --markdown] [--quick] [--only ${GROUPS.join('|')}] [--verbose]\n`,
  );
  process.exit(0);
}
const selected = only ? only.split(',') : GROUPS;
for (const g of selected) {
  if (!GROUPS.includes(g)) {
    process.stderr.write(`unknown group ${g}; groups: ${GROUPS.join(', ')}\n`);
    process.exit(2);
  }
}

// The groups are TypeScript run by Node 24's type stripping: prefer the project's pinned Node.
const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
const [major] = process.versions.node.split('.').map(Number);
const nodeBin = major >= 24 ? process.execPath : existsSync(pinned) ? pinned : process.execPath;

/**
 * What the first write to a fresh page of memory costs here, in µs: spawns, a start and the
 * garbage collector pay it for every page they touch, and a virtual machine whose host takes freed
 * memory back (free page reporting) charges 10–40× what a machine that keeps it does.
 */
function pageTouchMicros() {
  const script = `const b = Buffer.allocUnsafeSlow(64 << 20); const t = performance.now();
for (let i = 0; i < b.length; i += 4096) b[i] = 1;
console.log((performance.now() - t) * 1000 / (b.length / 4096));`;
  const r = spawnSync(nodeBin, ['-e', script], { encoding: 'utf8' });
  const us = Number(r.stdout.trim());
  return r.status === 0 && Number.isFinite(us) ? Math.round(us * 100) / 100 : null;
}

function machine() {
  const nodeVersion = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const rg = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memory_mib: Math.round(os.totalmem() / 2 ** 20),
    node: nodeVersion,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    ripgrep: rg.status === 0 ? rg.stdout.split('\n')[0] : null,
    loadavg: os.loadavg().map((v) => Math.round(v * 100) / 100),
    page_touch_us: pageTouchMicros(),
  };
}

function runGroup(name) {
  return new Promise((resolve) => {
    const args = [join(here, 'groups', `${name}.ts`)];
    if (quick) args.push('--quick');
    if (verbose || !quiet) args.push('--verbose');
    const started = Date.now();
    // Other work on the machine skews timings: each group records the load average around it.
    const loadBefore = os.loadavg().map((v) => Math.round(v * 100) / 100);
    const child = spawn(nodeBin, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
      if (!quiet || verbose) process.stderr.write(d);
    });
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      const load = os.loadavg().map((v) => Math.round(v * 100) / 100);
      try {
        resolve({ ...JSON.parse(line), seconds, loadavg_before: loadBefore, loadavg_after: load });
      } catch {
        resolve({
          group: name,
          quick,
          error: `exited ${code}: ${(err.trim().split('\n').slice(-5).join(' ') || 'no output').slice(0, 600)}`,
          figures: {},
          goals: [],
          notes: [],
          seconds,
        });
      }
    });
  });
}

const report = {
  date: new Date().toISOString(),
  command: `npm run bench --${argv.length ? ' ' + argv.join(' ') : ''}`.replace(/ --$/, ''),
  machine: machine(),
  quick,
  groups: {},
};
if (!quiet) {
  const m = report.machine;
  process.stdout.write(
    `Agent Workbench benchmarks — ${report.date}${quick ? ' (quick: sizes ÷10)' : ''}\n`,
  );
  process.stdout.write(
    `machine: ${m.nproc} cores (${m.cpu}), ${m.memory_mib} MiB, Node ${m.node}, ${m.platform}, ${m.ripgrep ?? 'ripgrep not installed'}, load average ${m.loadavg.join(' ')}, first write to a page ${m.page_touch_us ?? '?'} µs\n\n`,
  );
}
for (const name of selected) {
  if (!quiet) process.stderr.write(`running ${name}…\n`);
  const result = await runGroup(name);
  report.groups[name] = result;
  if (!quiet) process.stdout.write(`${formatGroup(result)}\n`);
}
if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else if (markdown) process.stdout.write(`${formatMarkdown(report)}\n`);
