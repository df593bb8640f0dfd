/**
 * Snapshots around `execute` (docs/tools.md#checkpoints): a workspace over the bounds, a machine
 * without git or a failing snapshot skip it with a note in the result and a `snapshot_skipped`
 * report, and the command still runs and succeeds.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExecuteTool } from '../../../src/main/tools/execute.ts';
import {
  createCommandSnapshotter,
  type CommandSnapshotOptions,
} from '../../../src/main/checkpoints/command-snapshot.ts';
import { run, tempWorkspace, writeTree, type TempWorkspace } from '../tools/helpers.ts';

let t: TempWorkspace;
let home: string;
let recorded: Array<{ skipped: string | null; files: string[] }>;
let skipped: string[];
beforeEach(async () => {
  t = await tempWorkspace();
  home = path.join(t.base, 'home');
  recorded = [];
  skipped = [];
});
afterEach(() => t.cleanup());

function tool(o: Partial<CommandSnapshotOptions> = {}) {
  return createExecuteTool({
    snapshot: createCommandSnapshotter({
      workbenchHome: home,
      sink: {
        record: (s, files) =>
          recorded.push({ skipped: s.skipped, files: files.map((f) => f.path) }),
        skipped: (reason) => skipped.push(reason),
      },
      ...o,
    }),
  });
}

describe('command snapshots', () => {
  it('records the files a command changed, outside .gitignore', async () => {
    await writeTree(t.root, { 'a.txt': 'a', '.gitignore': 'dist/\n' });
    const r = await run(tool(), { command: 'echo b > a.txt; mkdir dist; echo x > dist/x' }, t.ctx);
    expect(r.text).toBe('(no output)\n\nexit code: 0');
    expect(recorded).toEqual([{ skipped: null, files: ['a.txt'] }]);
    expect(skipped).toEqual([]);
  });

  it('skips a workspace over the bounds with a note, and the command still runs', async () => {
    await writeTree(t.root, { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    const r = await run(
      tool({ bounds: { maxFiles: 2, maxBytes: 1024 } }),
      { command: 'echo ran > d.txt' },
      t.ctx,
    );
    expect(r.ok).toBe(true);
    expect(r.text).toContain('exit code: 0');
    expect(r.text).toContain(
      'workspace not snapshotted (the workspace has more than 2 files outside .gitignore)',
    );
    expect(await fs.readFile(path.join(t.root, 'd.txt'), 'utf8')).toBe('ran\n');
    expect(skipped).toEqual(['the workspace has more than 2 files outside .gitignore']);
    expect(recorded).toEqual([
      { skipped: 'the workspace has more than 2 files outside .gitignore', files: [] },
    ]);

    await run(tool({ bounds: { maxFiles: 100, maxBytes: 4 } }), { command: 'true' }, t.ctx);
    expect(skipped[1]).toMatch(/^the workspace holds more than \d+ MB outside \.gitignore$/);
  });

  it('commands running at the same time in one workspace are not snapshotted', async () => {
    const t1 = tool();
    const [a, b] = await Promise.all([
      run(t1, { command: 'sleep 0.3; echo a > a.txt' }, t.ctx),
      run(t1, { command: 'echo b > b.txt' }, { ...t.ctx, callId: 'call_2' }),
    ]);
    for (const r of [a, b])
      expect(r.text).toContain(
        'workspace not snapshotted (another command ran in the workspace at the same time)',
      );
    expect(recorded.map((r) => r.files)).toEqual([[], []]);
  });

  it('without git the command runs and says it was not snapshotted', async () => {
    const r = await run(
      tool({ git: path.join(t.base, 'no-such-git') }),
      { command: 'echo hi' },
      t.ctx,
    );
    expect(r.text).toBe(
      "hi\n\nexit code: 0\nworkspace not snapshotted (git is not on PATH): this command's file changes cannot be reverted",
    );
    expect(skipped).toEqual(['git is not on PATH']);
  });

  it('a failing snapshot does not fail the command', async () => {
    // The home is a file: the shadow store cannot be created there.
    await fs.writeFile(home, 'not a folder');
    const r = await run(tool(), { command: 'echo done > out.txt; exit 4' }, t.ctx);
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(
      /^\(no output\)\n\nexit code: 4\nworkspace not snapshotted \(snapshot failed: /,
    );
    expect(await fs.readFile(path.join(t.root, 'out.txt'), 'utf8')).toBe('done\n');
    expect(skipped).toHaveLength(1);
  });
});
