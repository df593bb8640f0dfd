/**
 * `cli`: `workbench run` through bin/workbench.mjs, start to exit, for one model round against the fake
 * OpenAI server (answering "ok" at once), and the run's peak RSS. The goals are measured as an installed
 * workbench runs: the esbuild bundle (out/cli, built by `npm ci`; built here when missing or stale)
 * with an API key in the environment (the launcher hands it to a child). Also without a key (one
 * process) and from TypeScript source. Then the client gap per round of a 20-round `read_file` run,
 * measured at the model server (bench/lib/client-gap.ts), on threads of 20 and 2,000 messages.
 * The home is reused between runs (the database exists, as for a returning user).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAi } from '../../test/helpers/fake-openai-server.ts';
import { runGroup } from '../lib/group.ts';
import { tempDir } from '../lib/tmp.ts';
import { figure, goal, median, sample, type Figure } from '../lib/stats.ts';
import { measureClientGap } from '../lib/client-gap.ts';
import { newestMtime } from '../lib/newest-mtime.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Whether bin/workbench.mjs would run the bundle (the launcher's own rule). */
function bundleFresh(): boolean {
  const bundle = path.join(root, 'out/cli/workbench.mjs');
  if (!existsSync(bundle)) return false;
  const sources = Math.max(
    newestMtime(path.join(root, 'src/main')),
    newestMtime(path.join(root, 'src/shared')),
    statSync(path.join(root, 'package-lock.json')).mtimeMs,
  );
  return statSync(bundle).mtimeMs >= sources;
}

/** Builds out/cli when the launcher would not use it; returns why not when the build fails. */
function ensureBundle(log: (m: string) => void): string | undefined {
  if (bundleFresh()) return undefined;
  log('building the CLI bundle (npm run build:cli)…');
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (bundleFresh()) return undefined;
  return `the CLI bundle could not be built: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' ')}`;
}

/** One `say ok` round of the peer CLI under GNU time (peak RSS of the largest process). */
function runPeerOnce(
  peer: string,
  baseURL: string,
  cwd: string,
): Promise<{ ms: number; rssKiB: number }> {
  return new Promise((resolve, reject) => {
    const line = `${peer.replaceAll('{baseURL}', baseURL)} 'say ok'`;
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'WB_RSS %M', '/bin/sh', '-c', line], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const rss = /WB_RSS (\d+)/.exec(err);
      if (code !== 0 || !rss) reject(new Error(`peer exited ${code}: ${err.slice(-300)}`));
      else resolve({ ms, rssKiB: Number(rss[1]) });
    });
  });
}

await runGroup('cli', async (ctx) => {
  const fake = await startFakeOpenAi();
  const home = tempDir('cli-home');
  const workspace = tempDir('cli-ws');
  const rssFile = path.join(home, 'rss.txt');
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
  const runCli = (withRss: boolean, extraEnv: NodeJS.ProcessEnv, cliArgs = oneRound) =>
    new Promise<number>((resolve, reject) => {
      const args = [
        ...(withRss ? ['--import', path.join(root, 'bench/lib/report-rss.mjs')] : []),
        path.join(root, 'bin/workbench.mjs'),
        ...cliArgs,
      ];
      const t0 = performance.now();
      const child = spawn(process.execPath, args, {
        cwd: workspace,
        env: { ...env, ...extraEnv, WB_BENCH_RSS_FILE: withRss ? rssFile : '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.stderr.on('data', (d: Buffer) => (out += d));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`workbench run exited ${code}: ${out.slice(0, 500)}`));
        else resolve(performance.now() - t0);
      });
    });
  const measure = async (extraEnv: NodeJS.ProcessEnv) => {
    const walls = await sample(ctx.quick ? 3 : 10, 1, () => runCli(false, extraEnv));
    const rss = await sample(ctx.quick ? 2 : 5, 0, async () => {
      rmSync(rssFile, { force: true }); // the run's processes keep the largest peak they find there
      await runCli(true, extraEnv);
      return Number(readFileSync(rssFile, 'utf8')) / 1024;
    });
    return { walls, rss };
  };
  const figures: Record<string, Figure> = {};
  const notes: string[] = [`Node ${process.version}; the fake server runs in the bench process`];
  try {
    const bundleProblem = ensureBundle(ctx.log);
    if (bundleProblem) throw new Error(bundleProblem);
    figures.first_run = figure('workbench run, first run (creates the database)', 'ms', [
      await runCli(false, {}),
    ]);
    const bundled = await measure({});
    figures.run_wall = figure(
      'workbench run (bundle, key handed to a child): start + one round + exit',
      'ms',
      bundled.walls,
    );
    figures.peak_rss = figure(
      'workbench run (bundle, key handed over): peak RSS',
      'MiB',
      bundled.rss,
    );
    // No credential variable: the launcher runs the CLI in its own process (no key handover).
    const noKey = await measure({ OPENAI_API_KEY: undefined });
    figures.run_wall_no_key = figure(
      'workbench run (bundle, no key in the environment, one process): start + one round + exit',
      'ms',
      noKey.walls,
    );
    figures.peak_rss_no_key = figure(
      'workbench run (bundle, no key in the environment): peak RSS',
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
        run: (cliArgs) => runCli(false, {}, cliArgs),
      }),
    );
    const peer = process.env.WB_BENCH_PEER;
    if (peer) {
      try {
        const rssKiB: number[] = [];
        const walls = await sample(ctx.quick ? 3 : 10, 1, async () => {
          const r = await runPeerOnce(peer, fake.baseURL, workspace);
          rssKiB.push(r.rssKiB);
          return r.ms;
        });
        figures.peer_wall = figure(`peer CLI (${peer}): start + one round + exit`, 'ms', walls);
        figures.peer_rss = figure(
          'peer CLI: peak RSS',
          'MiB',
          rssKiB.slice(-walls.length).map((k) => k / 1024),
        );
      } catch (err) {
        // A peer is optional: its failure is reported, ours are still measured.
        ctx.log(`peer CLI failed, no side-by-side start: ${(err as Error).message}`);
      }
    }
    ctx.log(
      `run: ${median(bundled.walls).toFixed(0)} ms, peak RSS ${median(bundled.rss).toFixed(0)} MiB`,
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
