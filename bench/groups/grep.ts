/**
 * `grep`: the grep tool over a generated 20,000-file / ~200 MB tree against `rg` itself on the same
 * tree (rare and common pattern), the JS fallback against `rg`, and the glob tool (with `rg --files`
 * as a reference). The tree is generated once under os.tmpdir() and reused; the first (warm-up) run of
 * each figure fills the page cache, so every figure is a warm-cache figure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { runGroup } from '../lib/group.ts';
import { samplePair } from '../lib/pair.ts';
import { COMMON_PATTERN, RARE_PATTERN, ensureTree } from '../lib/tree.ts';
import { derived, figure, goal, median, sample, type Figure, type Goal } from '../lib/stats.ts';

/** Runs a command to its end, draining stdout; resolves with the bytes it printed. */
function run(cmd: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

const hasCommand = (cmd: string) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;

await runGroup('grep', async (ctx) => {
  const { createGrepTool, createGlobTool, createWorkspace, toolOutput } =
    await import('../../src/main/tools/index.ts');
  const tree = ensureTree(ctx.size(20_000, 2_000), ctx.log);
  const ws = await createWorkspace(tree.root);
  const toolCtx = {
    callId: 'c',
    workspace: ws,
    signal: new AbortController().signal,
    state: { thread_id: 't', messages: [], todos: [], files: {} },
  };
  // WB_BENCH_NO_RG=1 runs the group as on a machine without ripgrep (to check that path).
  const rgInstalled = !process.env.WB_BENCH_NO_RG && hasCommand('rg');
  const runs = ctx.quick ? 3 : 9;
  const figures: Record<string, Figure> = {};
  const goals: Goal[] = [];
  const notes: string[] = [
    `tree: ${tree.files.toLocaleString('en-US')} files, ~${Math.round(tree.bytes / 1e6)} MB, at ${tree.root}`,
  ];

  const grep = createGrepTool();
  const fallback = createGrepTool({ useRipgrep: false });
  const tool = (t: typeof grep, pattern: string) => async () => {
    const out = JSON.parse(toolOutput(await t.execute({ pattern }, toolCtx)).content) as { matches: unknown[] };
    if (out.matches.length === 0) throw new Error(`no match for ${pattern}`);
  };
  // What a user typing rg gets: line numbers, hidden files searched like the tool does, output drained.
  const rgArgs = (pattern: string) => [
    '--no-config',
    '--hidden',
    '-n',
    '--no-heading',
    '--',
    pattern,
    '.',
  ];

  for (const [name, pattern] of [
    ['rare', RARE_PATTERN],
    ['common', COMMON_PATTERN],
  ] as const) {
    if (rgInstalled) {
      // Paired (rg, tool, tool, rg, …) so load from other work hits both alike.
      const [rgTimes, toolTimes] = await samplePair(
        runs,
        1,
        () => run('rg', rgArgs(pattern), tree.root),
        tool(grep, pattern),
      );
      figures[`rg_${name}`] = figure(`rg itself, ${name} pattern`, 'ms', rgTimes);
      figures[`tool_${name}`] = figure(`grep tool (rg engine), ${name} pattern`, 'ms', toolTimes);
      const ratio = median(toolTimes) / median(rgTimes);
      figures[`ratio_${name}`] = derived(`grep tool / rg, ${name} pattern`, '×', ratio);
      goals.push(
        goal(`grep tool ≤ 1.2× rg (${name} pattern)`, ratio, '×', 1.2, { figure: `ratio_${name}` }),
      );
      ctx.log(
        `${name}: rg ${median(rgTimes).toFixed(0)} ms, tool ${median(toolTimes).toFixed(0)} ms`,
      );
    }
    const jsTimes = await sample(ctx.quick ? 2 : 3, 1, tool(fallback, pattern));
    figures[`js_${name}`] = figure(`grep tool, JS fallback, ${name} pattern`, 'ms', jsTimes);
    const base = rgInstalled ? figures[`rg_${name}`]!.median : null;
    if (base !== null) {
      const ratio = median(jsTimes) / base;
      figures[`js_ratio_${name}`] = derived(`JS fallback / rg, ${name} pattern`, '×', ratio);
      goals.push(
        goal(`JS fallback ≤ 4× rg (${name} pattern)`, ratio, '×', 4, {
          figure: `js_ratio_${name}`,
        }),
      );
    } else if (hasCommand('grep')) {
      const grepTimes = await sample(runs, 1, () =>
        run('grep', ['-rn', '-E', '--', pattern, '.'], tree.root).then(() => undefined),
      );
      figures[`gnugrep_${name}`] = figure(
        `GNU grep -rn (reference), ${name} pattern`,
        'ms',
        grepTimes,
      );
      figures[`js_ratio_${name}`] = derived(
        `JS fallback / GNU grep, ${name} pattern`,
        '×',
        median(jsTimes) / median(grepTimes),
      );
    }
    ctx.log(`${name}: JS fallback ${median(jsTimes).toFixed(0)} ms`);
  }
  if (!rgInstalled) {
    notes.push(
      'ripgrep (rg) is not installed, so the tool runs its JS fallback and the rg goals cannot be measured; install it with `sudo apt-get install ripgrep` (your choice)',
    );
    goals.push(
      goal('JS fallback ≤ 4× rg', null, '×', 4, {
        note: 'rg not installed: compared with GNU grep instead',
      }),
    );
  }

  const glob = createGlobTool();
  const globTimes = await sample(runs, 1, async () => {
    const out = JSON.parse(toolOutput(await glob.execute({ pattern: '**/*.ts' }, toolCtx)).content) as {
      files: unknown[];
    };
    if (out.files.length === 0) throw new Error('glob found nothing');
  });
  figures.glob = figure('glob tool, **/*.ts', 'ms', globTimes);
  if (rgInstalled) {
    const rgFiles = await sample(runs, 1, () =>
      run('rg', ['--no-config', '--hidden', '--files', '-g', '*.ts'], tree.root).then(
        () => undefined,
      ),
    );
    figures.rg_files = figure('rg --files -g "*.ts" (reference)', 'ms', rgFiles);
    figures.glob_ratio = derived(
      'glob tool / rg --files',
      '×',
      median(globTimes) / median(rgFiles),
    );
  }
  return { figures, goals, notes };
});
