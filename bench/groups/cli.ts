/**
 * `cli`: `workbench run` from TypeScript source (bin/workbench.mjs → src/main/cli/main.ts), start to exit,
 * for one model round against the fake OpenAI server (answering "ok" at once), and the run's peak RSS.
 * The home is reused between runs (the database exists, as for a returning user); the first run, which
 * creates it, is reported separately.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAi } from '../../test/helpers/fake-openai-server.ts';
import { runGroup } from '../lib/group.ts';
import { tempDir } from '../lib/tmp.ts';
import { figure, goal, median, sample } from '../lib/stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
  const runCli = (withRss: boolean, extraEnv: NodeJS.ProcessEnv = {}) =>
    new Promise<number>((resolve, reject) => {
      const args = [
        ...(withRss ? ['--import', path.join(root, 'bench/lib/report-rss.mjs')] : []),
        path.join(root, 'bin/workbench.mjs'),
        'run',
        '--base-url',
        fake.baseURL,
        '--model',
        'fake-model',
        '--auto',
        'say ok',
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
  try {
    const first = await runCli(false);
    const walls = await sample(ctx.quick ? 3 : 10, 1, () => runCli(false));
    // Node's module compile cache (which also keeps the type-stripped source) switched off: a first start.
    const noCache = { NODE_DISABLE_COMPILE_CACHE: '1' };
    const coldWalls = await sample(ctx.quick ? 3 : 10, 1, () => runCli(false, noCache));
    const rss = await sample(ctx.quick ? 2 : 5, 0, async () => {
      await runCli(true);
      return Number(readFileSync(rssFile, 'utf8')) / 1024;
    });
    const coldRss = await sample(ctx.quick ? 2 : 5, 0, async () => {
      await runCli(true, noCache);
      return Number(readFileSync(rssFile, 'utf8')) / 1024;
    });
    ctx.log(`run: ${median(walls).toFixed(0)} ms, peak RSS ${median(rss).toFixed(0)} MiB`);
    const figures = {
      first_run: figure('workbench run, first run (creates the database)', 'ms', [first]),
      run_wall: figure('workbench run: start + one round + exit', 'ms', walls),
      peak_rss: figure('peak RSS of that run', 'MiB', rss),
      run_wall_no_cache: figure('the same with NODE_DISABLE_COMPILE_CACHE=1', 'ms', coldWalls),
      peak_rss_no_cache: figure('peak RSS with NODE_DISABLE_COMPILE_CACHE=1', 'MiB', coldRss),
    };
    return {
      figures,
      goals: [
        goal('workbench run start + one round ≤ 0.7 s', figures.run_wall.median / 1000, 's', 0.7, {
          figure: 'run_wall',
        }),
        goal('peak RSS < 174 MiB', figures.peak_rss.median, 'MiB', 174, {
          figure: 'peak_rss',
          strict: true,
        }),
      ],
      notes: [
        `Node ${process.version} running TypeScript source by type stripping; the fake server runs in the bench process`,
      ],
    };
  } finally {
    await fake.close();
  }
});
