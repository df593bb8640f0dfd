/** Claude Code's rules as memory: found in both rules folders, frontmatter off, `paths` rules waiting, hostile ones refused. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { loadMemory } from '../../../src/main/memory/loader.ts';
import { MAX_RULES, readRule, ruleMatches } from '../../../src/main/memory/rules.ts';

let tmp: string;
let ws: string;
let claude: string;
beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wb-rules-')));
  ws = join(tmp, 'ws');
  claude = join(tmp, 'dot-claude');
  for (const d of [join(ws, '.claude', 'rules'), join(claude, 'rules'), join(tmp, 'wbhome')]) mkdirSync(d, { recursive: true });
  vi.stubEnv('HOME', join(tmp, 'user'));
  vi.stubEnv('CLAUDE_CONFIG_DIR', claude);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(tmp, { recursive: true, force: true });
});
const load = (rules?: string[]) => loadMemory({ home: join(tmp, 'wbhome'), workspace: ws, ...(rules ? { rules } : {}) });

it('reads your rules and the project\'s, holds back a rule with paths until it joined, and never shows frontmatter', async () => {
  writeFileSync(join(claude, 'rules', 'tone.md'), 'Be brief.\n');
  writeFileSync(join(ws, '.claude', 'rules', 'tests.md'), '---\npaths: "test/**/*.{ts,tsx}"\n---\nTests use vitest.\n');
  const before = await load();
  expect(before.text).toBe('Be brief.');
  const tests = join(ws, '.claude', 'rules', 'tests.md');
  expect(before.sources.find((s) => s.path === tests)).toMatchObject({ scope: 'workspace', paths: ['test/**/*.{ts,tsx}'], waiting: true });
  const after = await load([tests]);
  expect(after.text).toBe(`Be brief.\n\n---\n\nTests use vitest.`);
});

it("refuses a project rule linking out of the workspace, and reads at most MAX_RULES of a flood", async () => {
  writeFileSync(join(tmp, 'secret.txt'), 'API_KEY=sk-live\n');
  symlinkSync(join(tmp, 'secret.txt'), join(ws, '.claude', 'rules', 'a-link.md'));
  for (let i = 0; i < MAX_RULES + 20; i++) writeFileSync(join(ws, '.claude', 'rules', `r${String(i).padStart(3, '0')}.md`), `rule ${i}\n`);
  const memory = await load();
  expect(memory.text).not.toContain('sk-live');
  expect(memory.sources.find((s) => s.path.endsWith('a-link.md'))?.refused).toBeDefined();
  expect(memory.sources.filter((s) => s.path.includes(join('.claude', 'rules')))).toHaveLength(MAX_RULES);
});

it('reads paths as a list or one glob, and matches workspace-relative paths', () => {
  expect(readRule('---\npaths:\n  - "src/**/*.ts"\n  - lib/*.js\n---\nbody').paths).toEqual(['src/**/*.ts', 'lib/*.js']);
  expect(readRule('no frontmatter').paths).toBeUndefined();
  expect(ruleMatches(['src/**/*.{ts,tsx}'], 'src/ui/app.tsx')).toBe(true);
  expect(ruleMatches(['src/**/*.{ts,tsx}'], 'lib/app.tsx')).toBe(false);
});
