/**
 * `cli`: `workbench run` through bin/workbench.mjs, start to exit, for one model round against the fake
 * OpenAI server (answering "ok" at once), and the run's peak RSS. Measured three ways: from TypeScript
 * source (WORKBENCH_FROM_SOURCE=1: the goal's case), from source with Node's compile cache switched off,
 * and through the esbuild bundle (out/cli) when the launcher would use it (newer than every source).
 * Then the client gap per round of a 20-round `read_file` run, measured at the model server
 * (bench/lib/client-gap.ts), on threads of 20 and 2,000 messages.
 * The home is reused between runs (the database exists, as for a returning user).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAi } from '../../test/helpers/fake-openai-server.ts';
import { runGroup } from '../lib/group.ts';
import { tempDir } from '../lib/tmp.ts';
import { figure, goal, median, sample, type Figure } from '../lib/stats.ts';
import { measureClientGap } from '../lib/client-gap.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

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
    const fromSource = { WORKBENCH_FROM_SOURCE: '1' };
    figures.first_run = figure(
      'workbench run from source, first run (creates the database)',
      'ms',
      [await runCli(false, fromSource)],
    );
    const source = await measure(fromSource);
    figures.run_wall = figure(
      'from TypeScript source: start + one round + exit',
      'ms',
      source.walls,
    );
    figures.peak_rss = figure('from TypeScript source: peak RSS', 'MiB', source.rss);
    // No credential variable: the launcher runs the CLI in its own process (no key handover).
    const noKey = await measure({ ...fromSource, OPENAI_API_KEY: undefined });
    figures.run_wall_no_key = figure(
      'from source, no key in the environment (no handover child): start + one round + exit',
      'ms',
      noKey.walls,
    );
    figures.peak_rss_no_key = figure(
      'from source, no key in the environment: peak RSS',
      'MiB',
      noKey.rss,
    );
    // Node's module compile cache (which also keeps the type-stripped source) switched off.
    const cold = await measure({ ...fromSource, NODE_DISABLE_COMPILE_CACHE: '1' });
    figures.run_wall_no_cache = figure(
      'from source, NODE_DISABLE_COMPILE_CACHE=1: start + one round + exit',
      'ms',
      cold.walls,
    );
    figures.peak_rss_no_cache = figure(
      'from source, NODE_DISABLE_COMPILE_CACHE=1: peak RSS',
      'MiB',
      cold.rss,
    );
    Object.assign(
      figures,
      await measureClientGap(ctx, {
        home,
        workspace,
        run: (cliArgs) => runCli(false, fromSource, cliArgs),
      }),
    );
    if (bundleFresh()) {
      const bundled = await measure({});
      figures.bundle_wall = figure(
        'esbuild bundle (out/cli): start + one round + exit',
        'ms',
        bundled.walls,
      );
      figures.bundle_rss = figure('esbuild bundle (out/cli): peak RSS', 'MiB', bundled.rss);
    } else
      notes.push(
        'out/cli/workbench.mjs is missing or older than the sources, so the launcher runs the sources; `npm run build:cli` builds it',
      );
    ctx.log(
      `run from source: ${median(source.walls).toFixed(0)} ms, peak RSS ${median(source.rss).toFixed(0)} MiB`,
    );
  } finally {
    await fake.close();
  }
  return {
    figures,
    goals: [
      goal(
        'workbench run (from source) start + one round ≤ 0.7 s',
        figures.run_wall!.median / 1000,
        's',
        0.7,
        { figure: 'run_wall' },
      ),
      goal('peak RSS of that run < 174 MiB', figures.peak_rss!.median, 'MiB', 174, {
        figure: 'peak_rss',
        strict: true,
      }),
      goal('client gap ≤ 1 ms per round at 2,000 messages', figures.gap_long!.median, 'ms', 1, {
        figure: 'gap_long',
      }),
    ],
    notes,
  };
});
