/**
 * bin/workbench, the installed command: with a fresh startup snapshot it becomes the CLI itself (one
 * Node process, started from out/cli/workbench.blob) and hands the key over on a pipe; a stale
 * snapshot, an odd key or a request for the sources go to bin/workbench.mjs.
 */
import { spawn } from 'node:child_process';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliBuildFresh } from '../../scripts/cli-build-fresh.mjs';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { cliEnv, collect, events, sandbox, withoutSandbox } from '../helpers/run-cli.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILD_SCRIPTS = ['scripts/build-cli.mjs', 'scripts/cli-snapshot.mjs'];
const COMMAND = join(ROOT, 'bin/workbench');

// Prints, for each process between the command and the test, whether its environment holds a key
// variable, and the command line of the command's parent (the CLI).
const ANCESTORS = `#!/bin/sh
stop=$1; pid=$PPID; holding=0
echo "cli: $(tr '\\0' ' ' < /proc/$PPID/cmdline)"
while [ "$pid" -gt 1 ] && [ "$pid" != "$stop" ]; do
  if tr '\\0' '\\n' < /proc/$pid/environ | grep -q '^OPENAI_API_KEY='; then holding=$((holding + 1)); fi
  pid=$(awk '{print $4}' /proc/$pid/stat)
done
echo "holding the key: $holding"
`;

// A user hook (hooks inherit the user's environment, commands only an allowlist) that notes the
// start-up tuning variables it was given.
const TUNABLES_SPY = (out: string) => `#!/bin/sh
if [ "$1" = hook ]; then echo after_tool_call; exit 0; fi
cat > /dev/null
env | grep '^GLIBC_TUNABLES=\\|^WORKBENCH_UNSET_GLIBC_TUNABLES=' > '${out}'
exit 0
`;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  return collect(spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** One run whose single command reports the processes above it. */
async function reportAncestors(key: string, extra: Record<string, string> = {}) {
  const { home, workspace } = await sandbox();
  await withoutSandbox(home); // its PID namespace would hide the processes looked at
  await writeFile(join(workspace, 'ancestors.sh'), ANCESTORS);
  await chmod(join(workspace, 'ancestors.sh'), 0o755);
  const tunables = join(home, '..', 'tunables.txt');
  await mkdir(join(home, 'hooks'));
  await writeFile(join(home, 'hooks', 'spy'), TUNABLES_SPY(tunables));
  await chmod(join(home, 'hooks', 'spy'), 0o755);
  fake = await startFakeOpenAi({
    apiKey: key,
    script: [
      { toolCalls: [{ name: 'execute', args: { command: `./ancestors.sh ${process.pid}` } }] },
      { text: 'done' },
    ],
  });
  const env = cliEnv({
    home,
    workspace,
    baseURL: fake.baseURL,
    extra: { OPENAI_API_KEY: key, ...extra },
  });
  const r = await runCommand(
    COMMAND,
    ['run', '--auto', '--json', 'who holds the key?'],
    env,
    workspace,
  );
  expect(r.stderr).not.toContain('Error');
  expect(r.code).toBe(0);
  // Both requests bore the key: the fake server answers no other bearer.
  expect(fake.chatRequests()).toHaveLength(2);
  const end = events(r.stdout).find((e) => e.event === 'on_tool_end');
  return {
    output: end?.event === 'on_tool_end' ? String(end.data.output) : '',
    hookSaw: await readFile(tunables, 'utf8'),
  };
}

describe.runIf(process.platform === 'linux')('bin/workbench', () => {
  it('has a fresh build to start from (rebuilt by the tests global setup)', () => {
    expect(cliBuildFresh(ROOT)).toBe(true);
  });

  it('becomes the CLI, started from the snapshot with a small young generation, and no process holds the key', async () => {
    const { output, hookSaw } = await reportAncestors('sk-launcher-4f2a.b_c~d+e/f=');
    expect(output).toMatch(
      /cli: \S*node --max-semi-space-size=2 --snapshot-blob \S*workbench\.blob -- run /,
    );
    expect(output).toContain('holding the key: 0');
    // The start-up tuning bin/workbench sets is not passed on to hooks.
    expect(hookSaw).toBe('');
  });

  it("leaves the user's own GLIBC_TUNABLES to the commands", async () => {
    const { hookSaw } = await reportAncestors('sk-launcher-tunables', {
      GLIBC_TUNABLES: 'glibc.malloc.arena_max=2',
    });
    expect(hookSaw).toBe('GLIBC_TUNABLES=glibc.malloc.arena_max=2\n');
  });

  it('hands a key of any other characters to bin/workbench.mjs, which still keeps it from the CLI', async () => {
    const { output } = await reportAncestors('sk "quoted" $key\\with;odd chars');
    expect(output).toMatch(/cli: \S*node --max-semi-space-size=2 --snapshot-blob /);
    // The Node launcher above the CLI keeps it (as bin/workbench.mjs always has); the CLI does not.
    expect(output).toContain('holding the key: 1');
  });

  it('runs the sources when asked to', async () => {
    const { output } = await reportAncestors('sk-from-source', { WORKBENCH_FROM_SOURCE: '1' });
    expect(output).not.toContain('--snapshot-blob');
    expect(output).toMatch(/cli: \S*node --max-semi-space-size=2 \S*bin\/workbench\.mjs run /);
  });

  it("serves with V8's own young generation: a long-lived process", async () => {
    const { home, workspace } = await sandbox();
    const renderer = join(home, 'renderer');
    await mkdir(renderer);
    await writeFile(join(renderer, 'index.html'), '<!doctype html><title>app</title>');
    const child = spawn(COMMAND, ['serve', '--port', '0', '--renderer-dir', renderer], {
      cwd: workspace,
      env: cliEnv({ home, workspace }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      await new Promise<void>((serving, failed) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d;
          if (out.includes('http://')) serving();
        });
        child.on('exit', (code) => failed(new Error(`serve exited ${code}: ${out}`)));
      });
      const argv = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0');
      expect(argv).toContain('--snapshot-blob');
      expect(argv.join(' ')).not.toContain('--max-semi-space-size');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('passes every argument to the CLI, even those Node would take as its own', async () => {
    const { home, workspace } = await sandbox();
    const env = cliEnv({ home, workspace });
    const help = await runCommand(COMMAND, ['--help'], env, workspace);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: workbench <command>');
    const version = await runCommand(COMMAND, ['--version'], env, workspace);
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('unknown command "--version"');
  });
});

describe('bin/workbench with a stale snapshot', () => {
  // A checkout of its own: the real command and snapshot, and a stand-in for bin/workbench.mjs.
  async function checkout() {
    const dir = await mkdtemp(join(tmpdir(), 'wb-launcher-'));
    for (const sub of ['bin', 'out/cli', 'src/main', 'src/shared', 'scripts'])
      await mkdir(join(dir, sub), { recursive: true });
    await copyFile(COMMAND, join(dir, 'bin/workbench'));
    await writeFile(
      join(dir, 'bin/workbench.mjs'),
      "console.log('launcher', process.argv.slice(2).join(' '));\n",
    );
    await writeFile(join(dir, 'src/main/a.ts'), '');
    await writeFile(join(dir, 'src/shared/b.ts'), '');
    await writeFile(join(dir, 'package-lock.json'), '{}');
    for (const f of BUILD_SCRIPTS) await writeFile(join(dir, f), '');
    const old = new Date(Date.now() - 60_000);
    for (const f of ['src/main/a.ts', 'src/shared/b.ts', 'package-lock.json', ...BUILD_SCRIPTS])
      await utimes(join(dir, f), old, old);
    await symlink(join(ROOT, 'out/cli/workbench.blob'), join(dir, 'out/cli/workbench.blob'));
    await writeFile(
      join(dir, 'out/cli/workbench.blob.node'),
      await readFile(join(ROOT, 'out/cli/workbench.blob.node')),
    );
    return dir;
  }
  const run = (dir: string) =>
    runCommand(join(dir, 'bin/workbench'), ['help', 'me'], { PATH: process.env.PATH }, dir);

  it.runIf(process.platform === 'linux')(
    'starts the snapshot while it is newer than every source',
    async () => {
      const dir = await checkout();
      const r = await run(dir);
      expect(r.stdout).toContain('usage: workbench <command>');
    },
  );

  it('goes to bin/workbench.mjs once a source file is newer', async () => {
    const dir = await checkout();
    await writeFile(join(dir, 'src/main/a.ts'), 'export {};\n');
    // Clearly later than the snapshot: file times move in clock ticks of a few ms.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, 'src/main/a.ts'), later, later);
    const r = await run(dir);
    expect(r.stdout).toBe('launcher help me\n');
  });

  it.runIf(process.platform === 'linux')(
    'finds the files of the checkout it was started from, not of the one that built it',
    async () => {
      const dir = await checkout();
      await writeFile(join(dir, 'package.json'), '{"name":"agent-workbench","version":"0.0.0"}');
      const home = join(dir, 'home');
      await mkdir(home);
      // `serve` looks for the renderer beside the package: this checkout has none, the builder's has.
      const r = await runCommand(
        join(dir, 'bin/workbench'),
        ['serve', '--port', '0'],
        { PATH: process.env.PATH, HOME: home, WORKBENCH_HOME: home },
        dir,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no built renderer in ${join(dir, 'out/renderer')}`);
    },
  );

  it('goes to bin/workbench.mjs when the Node that wrote it is gone', async () => {
    const dir = await checkout();
    await writeFile(join(dir, 'out/cli/workbench.blob.node'), join(dir, 'no-such-node\n'));
    const r = await run(dir);
    expect(r.stdout).toBe('launcher help me\n');
  });
});
