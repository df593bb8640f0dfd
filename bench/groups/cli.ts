/**
 * `cli`: `workbench run`, start to exit, for one model round against the fake OpenAI server (answering
 * "ok" at once), and the run's peak RSS (GNU time: the largest process). The goals are measured as an
 * installed workbench runs: bin/workbench with an API key in the environment, which starts the CLI
 * from its startup snapshot (out/cli, built by `npm ci`; built here when missing or stale) and hands
 * the key over. Also `node bin/workbench.mjs` with a key (a child started from the snapshot), without
 * one (the bundle in one process) and from TypeScript source. Then the client gap per round of a
 * 20-round `read_file` run, measured at the model server (bench/lib/client-gap.ts), on threads of 20
 * and 2,000 messages. The home is reused between runs (the database exists, as for a returning user).
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAi } from '../../test/helpers/fake-openai-server.ts';
import { runGroup } from '../lib/group.ts';
import { tempDir } from '../lib/tmp.ts';
import { figure, goal, median, sample, type Figure } from '../lib/stats.ts';
import { measureClientGap } from '../lib/client-gap.ts';
import { cliBuildFresh } from '../../scripts/cli-build-fresh.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds out/cli when the launcher would not use it; returns why not when the build fails. */
function ensureBundle(log: (m: string) => void): string | undefined {
  if (cliBuildFresh(root)) return undefined;
  log('building the CLI bundle (npm run build:cli)…');
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (cliBuildFresh(root)) return undefined;
  return `the CLI bundle could not be built: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' ')}`;
}

/**
 * Runs `argv` to its exit; with `withRss`, under GNU time (the peak RSS of the largest process of the
 * run). Rejects with the start of its output when it fails.
 */
function timedRun(
  argv: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; withRss: boolean },
): Promise<{ ms: number; rssMiB: number }> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = opts.withRss ? ['/usr/bin/time', '-f', 'WB_RSS %M', ...argv] : argv;
    const t0 = performance.now();
    const child = spawn(file!, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const rss = /WB_RSS (\d+)/.exec(out);
      if (code !== 0 || (opts.withRss && !rss))
        reject(new Error(`${argv[0]} exited ${code}: ${out.slice(0, 500)}`));
      else resolve({ ms, rssMiB: rss ? Number(rss[1]) / 1024 : NaN });
    });
  });
}

await runGroup('cli', async (ctx) => {
  const fake = await startFakeOpenAi();
  const home = tempDir('cli-home');
  const workspace = tempDir('cli-ws');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    WORKBENCH_HOME: home,
    OPENAI_API_KEY: 'sk-bench',
    NODE_NO_WARNINGS: '1',
  };
  delete env.NODE_OPTIONS;
  delete env.NODE_COMPILE_CACHE;
  delete env.WORKBENCH_FROM_SOURCE;
  const oneRound = ['run', '--base-url', fake.baseURL, '--model', 'fake-model', '--auto', 'say ok'];
  // `installed`: bin/workbench, the command an install puts on the PATH; `launcher`: node bin/workbench.mjs.
  const commandLine = (how: 'installed' | 'launcher', cliArgs: string[]) =>
    how === 'installed'
      ? [path.join(root, 'bin/workbench'), ...cliArgs]
      : [process.execPath, path.join(root, 'bin/workbench.mjs'), ...cliArgs];
  const runCli = (
    withRss: boolean,
    extraEnv: NodeJS.ProcessEnv,
    cliArgs = oneRound,
    how: 'installed' | 'launcher' = 'launcher',
  ) => timedRun(commandLine(how, cliArgs), { cwd: workspace, env: { ...env, ...extraEnv }, withRss });
  const measure = async (extraEnv: NodeJS.ProcessEnv, how: 'installed' | 'launcher' = 'launcher') => {
    const walls = await sample(ctx.quick ? 3 : 10, 1, async () => (await runCli(false, extraEnv, oneRound, how)).ms);
    const rss = await sample(ctx.quick ? 2 : 5, 0, async () => (await runCli(true, extraEnv, oneRound, how)).rssMiB);
    return { walls, rss };
  };
  const figures: Record<string, Figure> = {};
  const notes: string[] = [`Node ${process.version}; the fake server runs in the bench process`];
  try {
    const bundleProblem = ensureBundle(ctx.log);
    if (bundleProblem) throw new Error(bundleProblem);
    figures.first_run = figure('workbench run, first run (creates the database)', 'ms', [
      (await runCli(false, {})).ms,
    ]);
    const installed = await measure({}, 'installed');
    figures.run_wall = figure(
      'workbench run (bin/workbench: the startup snapshot, key handed over): start + one round + exit',
      'ms',
      installed.walls,
    );
    figures.peak_rss = figure('bin/workbench run: peak RSS', 'MiB', installed.rss);
    const bundled = await measure({});
    figures.launcher_wall = figure(
      'node bin/workbench.mjs run (key handed to a child started from the snapshot): start + one round + exit',
      'ms',
      bundled.walls,
    );
    figures.launcher_rss = figure('node bin/workbench.mjs run: peak RSS', 'MiB', bundled.rss);
    // No credential variable: the launcher runs the CLI in its own process (no key handover).
    const noKey = await measure({ OPENAI_API_KEY: undefined });
    figures.run_wall_no_key = figure(
      'node bin/workbench.mjs run (no key in the environment: the bundle in one process): start + one round + exit',
      'ms',
      noKey.walls,
    );
    figures.peak_rss_no_key = figure(
      'node bin/workbench.mjs run (no key): peak RSS',
      'MiB',
      noKey.rss,
    );
    // From TypeScript source (a checkout whose bundle is stale runs this way).
    const source = await measure({ WORKBENCH_FROM_SOURCE: '1' });
    figures.source_wall = figure(
      'from TypeScript source (WORKBENCH_FROM_SOURCE=1): start + one round + exit',
      'ms',
      source.walls,
    );
    figures.source_rss = figure('from TypeScript source: peak RSS', 'MiB', source.rss);
    Object.assign(
      figures,
      await measureClientGap(ctx, {
        home,
        workspace,
        run: async (cliArgs) => (await runCli(false, {}, cliArgs, 'installed')).ms,
      }),
    );
    const peer = process.env.WB_BENCH_PEER;
    if (peer) {
      try {
        const rssMiB: number[] = [];
        const walls = await sample(ctx.quick ? 3 : 10, 1, async () => {
          const line = `${peer.replaceAll('{baseURL}', fake.baseURL)} 'say ok'`;
          const r = await timedRun(['/bin/sh', '-c', line], { cwd: workspace, withRss: true });
          rssMiB.push(r.rssMiB);
          return r.ms;
        });
        figures.peer_wall = figure(`peer CLI (${peer}): start + one round + exit`, 'ms', walls);
        figures.peer_rss = figure('peer CLI: peak RSS', 'MiB', rssMiB.slice(-walls.length));
      } catch (err) {
        // A peer is optional: its failure is reported, ours are still measured.
        ctx.log(`peer CLI failed, no side-by-side start: ${(err as Error).message}`);
      }
    }
    ctx.log(
      `run: ${median(installed.walls).toFixed(0)} ms, peak RSS ${median(installed.rss).toFixed(0)} MiB`,
    );
  } finally {
    await fake.close();
  }
  return {
    figures,
    goals: [
      goal('workbench run start + one round ≤ 0.15 s', figures.run_wall!.median / 1000, 's', 0.15, {
        figure: 'run_wall',
      }),
      goal('peak RSS of that run ≤ 90 MiB', figures.peak_rss!.median, 'MiB', 90, {
        figure: 'peak_rss',
      }),
      goal('client gap ≤ 1 ms per round at 2,000 messages', figures.gap_long!.median, 'ms', 1, {
        figure: 'gap_long',
      }),
    ],
    notes,
  };
});
