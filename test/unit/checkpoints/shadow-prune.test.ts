/**
 * The shadow git store keeps about one copy of the workspace (docs/tools.md#command-snapshots):
 * a prune drops every snapshot but the latest and removes from disk what only the older ones held,
 * once it is older than the grace period; the latest snapshot and new ones keep working.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShadowStore, shadowDir } from '../../../src/main/checkpoints/shadow-git.ts';
import { tempWorkspace, type TempWorkspace } from '../tools/helpers.ts';

let t: TempWorkspace;
let home: string;
beforeEach(async () => {
  t = await tempWorkspace();
  home = path.join(t.base, 'home');
});
afterEach(() => t.cleanup());

const blobOf = (text: string) =>
  execFileSync('git', ['hash-object', '--stdin'], { input: text }).toString().trim();

/** Whether the store still holds an object. */
function holds(sha: string): boolean {
  try {
    execFileSync('git', [`--git-dir=${shadowDir(home, t.root)}`, 'cat-file', '-e', sha], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** Makes every loose object look `ms` old. */
async function age(ms: number): Promise<void> {
  const objects = path.join(shadowDir(home, t.root), 'objects');
  const when = new Date(Date.now() - ms);
  for (const dir of await fs.readdir(objects)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const f of await fs.readdir(path.join(objects, dir)))
      await fs.utimes(path.join(objects, dir, f), when, when);
  }
}

describe('pruning the shadow store', () => {
  it('removes content only older snapshots held, past the grace period, and keeps working', async () => {
    const store = createShadowStore({ workbenchHome: home, workspace: t.root });
    await fs.writeFile(path.join(t.root, 'notes.txt'), 'key=OLD-SECRET\n');
    await fs.writeFile(path.join(t.root, 'keep.txt'), 'kept\n');
    const first = await store.snapshot();
    await fs.writeFile(path.join(t.root, 'notes.txt'), 'key=rotated\n');
    const second = await store.snapshot();
    if (!('tree' in first) || !('tree' in second)) throw new Error('snapshots were skipped');
    const old = blobOf('key=OLD-SECRET\n');
    expect(holds(old)).toBe(true);

    // Within the grace period nothing leaves the disk: a running command may still need it.
    await store.prune();
    expect(holds(old)).toBe(true);
    await age(2 * 60 * 60 * 1000);
    await store.prune();
    expect(holds(old)).toBe(false);
    expect(holds(first.tree)).toBe(false);
    // The latest snapshot and what it holds stay, however old.
    expect(holds(second.tree)).toBe(true);
    expect(holds(blobOf('kept\n'))).toBe(true);

    await fs.writeFile(path.join(t.root, 'notes.txt'), 'key=third\n');
    const third = await store.snapshot();
    if (!('tree' in third)) throw new Error('snapshot was skipped');
    const changes = await store.changes(second.tree, third.tree);
    expect(changes.map((c) => [c.path, c.before?.toString(), c.after?.toString()])).toEqual([
      ['notes.txt', 'key=rotated\n', 'key=third\n'],
    ]);
  });

  it('leaves a store that does not exist yet alone', async () => {
    const store = createShadowStore({ workbenchHome: home, workspace: t.root });
    await store.prune();
    await expect(fs.stat(shadowDir(home, t.root))).rejects.toThrow();
  });
});
