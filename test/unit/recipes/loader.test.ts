/** Recipe files: a FIFO among them is skipped instead of holding the list. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { listRecipes } from '../../../src/main/recipes/loader.ts';

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'wb-recipes-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

it('lists the readable recipes of a trusted workspace at once when one of them is a FIFO', async () => {
  const workspace = join(base, 'ws');
  const commands = join(workspace, '.claude', 'commands');
  mkdirSync(commands, { recursive: true });
  writeFileSync(
    join(commands, 'review.md'),
    '---\ndescription: Review the diff\n---\nReview $ARGUMENTS',
  );
  execFileSync('mkfifo', [join(commands, 'trap.md')]);
  const recipes = await listRecipes({ workspace, home: join(base, 'home'), trusted: true });
  expect(recipes.filter((r) => r.source === 'claude').map((r) => [r.name, r.description])).toEqual([
    ['review', 'Review the diff'],
  ]);
});

it("reads Claude Code's commands grouped in subfolders under their file's name, a folder's own first, linked folders not entered", async () => {
  const workspace = join(base, 'ws');
  const commands = join(workspace, '.claude', 'commands');
  mkdirSync(join(commands, 'frontend', 'forms'), { recursive: true });
  mkdirSync(join(commands, 'backend'), { recursive: true });
  writeFileSync(join(commands, 'review.md'), 'Review the diff');
  writeFileSync(join(commands, 'frontend', 'component.md'), 'Make a component');
  writeFileSync(join(commands, 'frontend', 'forms', 'validate.md'), 'Validate a form');
  writeFileSync(join(commands, 'backend', 'review.md'), 'Review the backend');
  const elsewhere = join(base, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'leak.md'), 'Not from here');
  symlinkSync(elsewhere, join(commands, 'linked'));
  const recipes = await listRecipes({ workspace, home: join(base, 'home'), trusted: true });
  expect(recipes.filter((r) => r.source === 'claude').map((r) => [r.name, r.description])).toEqual([
    ['component', 'Make a component'],
    ['review', 'Review the diff'],
    ['validate', 'Validate a form'],
  ]);
});
