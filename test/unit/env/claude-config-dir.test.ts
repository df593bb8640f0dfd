/**
 * A Claude Code folder moved by CLAUDE_CONFIG_DIR is read for everything Claude Code keeps there:
 * its commands (recipes), skills and CLAUDE.md, as its settings hooks already were.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { loadMemory } from '../../../src/main/memory/loader.ts';
import { listRecipes } from '../../../src/main/recipes/loader.ts';
import { loadSkills } from '../../../src/main/skills/loader.ts';
import { instructionsFields } from '../../../src/main/user-hooks/claude-events.ts';

let tmp: string;
let moved: string;
const dirs = () => ({ home: join(tmp, 'wbhome'), workspace: join(tmp, 'ws') });

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wb-claude-dir-')));
  moved = join(tmp, 'config', 'claude');
  for (const d of [join(tmp, 'user', '.claude'), dirs().home, dirs().workspace]) mkdirSync(d, { recursive: true });
  mkdirSync(join(moved, 'commands'), { recursive: true });
  mkdirSync(join(moved, 'skills', 'notes'), { recursive: true });
  writeFileSync(join(moved, 'commands', 'standup.md'), 'Summarize what changed since yesterday.\n');
  writeFileSync(join(moved, 'skills', 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Takes notes\n---\nBody\n');
  writeFileSync(join(moved, 'CLAUDE.md'), 'Answer in British English.\n');
  // What ~/.claude holds is not read once Claude Code's folder is elsewhere.
  writeFileSync(join(tmp, 'user', '.claude', 'CLAUDE.md'), 'stale\n');
  vi.stubEnv('HOME', join(tmp, 'user'));
  vi.stubEnv('CLAUDE_CONFIG_DIR', moved);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(tmp, { recursive: true, force: true });
});

it("reads the moved folder's commands, skills and CLAUDE.md, and not ~/.claude's", async () => {
  const recipes = await listRecipes({ ...dirs(), trusted: false });
  expect(recipes.map((r) => [r.name, r.source])).toEqual([['standup', 'claude-user']]);
  const { skills } = await loadSkills(dirs());
  expect(skills.map((s) => [s.name, s.source])).toEqual([['notes', 'claude-user']]);
  const memory = await loadMemory(dirs());
  expect(memory.text).toContain('Answer in British English.');
  expect(memory.text).not.toContain('stale');
});

it("reads the administrator's CLAUDE.md beside the managed settings first, told as Managed", async () => {
  const managed = join(tmp, 'etc-claude-code');
  mkdirSync(managed);
  writeFileSync(join(managed, 'CLAUDE.md'), 'Never push to main.\n');
  vi.stubEnv('WORKBENCH_CLAUDE_MANAGED_SETTINGS', join(managed, 'managed-settings.json'));
  const memory = await loadMemory(dirs());
  expect(memory.text.startsWith('Never push to main.')).toBe(true);
  expect(memory.sources[0]).toMatchObject({ scope: 'managed', path: join(managed, 'CLAUDE.md') });
  expect(instructionsFields({ path: memory.sources[0]!.path, scope: 'managed', reason: 'run_start' })).toMatchObject({ memory_type: 'Managed', load_reason: 'session_start' });
});
