import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  loadMemory,
  MEMORY_SEPARATOR,
  type MemoryImport,
} from '../../../src/main/memory/loader.ts';
import { importRefs } from '../../../src/main/memory/imports.ts';

let tmp: string;
let home: string;
let user: string;
let workspace: string;
beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wb-imports-')));
  home = join(tmp, 'wbhome');
  user = join(tmp, 'user');
  workspace = join(tmp, 'ws');
  for (const d of [home, user, workspace]) mkdirSync(d);
  vi.stubEnv('HOME', user);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(tmp, { recursive: true, force: true });
});

const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
const load = () => loadMemory({ home, workspace });
const tree = (imports: MemoryImport[] | undefined): unknown[] =>
  (imports ?? []).map((i) => [i.ref, i.refused ?? 'read', ...(i.imports ? [tree(i.imports)] : [])]);

describe('@path imports', () => {
  it('reads imports relative to the importing file and from ~/, nested, after the importer', async () => {
    write(join(workspace, 'AGENTS.md'), 'root notes\nSee @docs/style.md and @~/.claude/mine.md.');
    write(join(workspace, 'docs', 'style.md'), 'style guide @parts/naming.md');
    write(join(workspace, 'docs', 'parts', 'naming.md'), 'camelCase names');
    write(join(user, '.claude', 'mine.md'), 'my personal rules');
    const m = await load();
    expect(m.text).toBe(
      [
        'root notes\nSee @docs/style.md and @~/.claude/mine.md.',
        'style guide @parts/naming.md',
        'camelCase names',
        'my personal rules',
      ].join(MEMORY_SEPARATOR),
    );
    expect(tree(m.sources.find((s) => s.scope === 'workspace')?.imports)).toEqual([
      ['docs/style.md', 'read', [['parts/naming.md', 'read']]],
      ['~/.claude/mine.md', 'read'],
    ]);
  });

  it('follows at most 5 hops', async () => {
    write(join(workspace, 'AGENTS.md'), '@m1.md');
    for (let i = 1; i <= 6; i++) write(join(workspace, `m${i}.md`), `level ${i}\n@m${i + 1}.md`);
    const m = await load();
    expect(m.text).toContain('level 5');
    expect(m.text).not.toContain('level 6');
    let node = m.sources[1].imports?.[0];
    for (let i = 1; i < 6; i++) node = node?.imports?.[0];
    expect(node?.ref).toBe('m6.md');
    expect(node?.refused).toMatch(/at most 5 hops/);
  });

  it('cuts a cycle and reads each file once', async () => {
    write(join(workspace, 'AGENTS.md'), 'root @a.md');
    write(join(workspace, 'a.md'), 'file a @b.md');
    write(join(workspace, 'b.md'), 'file b @a.md @AGENTS.md');
    const m = await load();
    expect(m.text).toBe(
      ['root @a.md', 'file a @b.md', 'file b @a.md @AGENTS.md'].join(MEMORY_SEPARATOR),
    );
    expect(tree(m.sources[1].imports)).toEqual([
      [
        'a.md',
        'read',
        [
          [
            'b.md',
            'read',
            [
              ['a.md', expect.stringMatching(/cycle/)],
              ['AGENTS.md', expect.stringMatching(/cycle/)],
            ],
          ],
        ],
      ],
    ]);
  });

  it('never reads an import outside the workspace and the user config folders', async () => {
    write(join(tmp, 'outside', 'secret.md'), 'SECRET-CANARY');
    write(join(user, 'notes.md'), 'HOME-CANARY');
    write(
      join(workspace, 'AGENTS.md'),
      `@../outside/secret.md @${join(tmp, 'outside', 'secret.md')} @~/notes.md`,
    );
    const m = await load();
    expect(m.text).not.toMatch(/CANARY/);
    const imports = m.sources[1].imports ?? [];
    expect(imports).toHaveLength(3);
    for (const i of imports) expect(i.refused).toMatch(/^refused: .*outside the workspace/);
  });

  it('ignores references in code spans and fenced blocks, and mentions of files that do not exist', async () => {
    write(join(workspace, 'x.md'), 'X-CONTENT');
    write(join(workspace, 'AGENTS.md'), 'Run `npm i @x.md`\n```\n@x.md\n```\nping @alice about it');
    const m = await load();
    expect(m.text).not.toContain('X-CONTENT');
    expect(m.sources[1].imports).toBeUndefined();
    expect(importRefs('a @one.md `@two.md` b\n~~~\n@three.md\n~~~\n@four.md')).toEqual([
      'one.md',
      'four.md',
    ]);
  });
});

describe('Claude Code memory locations', () => {
  it('counts AGENTS.md and CLAUDE.md once when CLAUDE.md only points to AGENTS.md', async () => {
    write(join(workspace, 'AGENTS.md'), 'shared rules');
    write(join(workspace, 'CLAUDE.md'), '@AGENTS.md\n');
    const m = await load();
    expect(m.text).toBe('shared rules');
    expect(
      m.sources
        .filter((s) => s.scope === 'workspace')
        .map((s) => [s.path.slice(tmp.length), s.refused]),
    ).toEqual([
      ['/ws/AGENTS.md', undefined],
      ['/ws/CLAUDE.md', undefined],
    ]);
    expect(m.sources[2].imports?.[0].refused).toBe('already loaded');
  });

  it('counts the file once the other way round too (AGENTS.md only says @CLAUDE.md)', async () => {
    write(join(workspace, 'AGENTS.md'), '@CLAUDE.md');
    write(join(workspace, 'CLAUDE.md'), 'claude rules');
    const m = await load();
    expect(m.text).toBe('claude rules');
  });

  it('reads .claude/CLAUDE.md, CLAUDE.local.md and ~/.claude/CLAUDE.md', async () => {
    write(join(home, 'AGENTS.md'), 'workbench user');
    write(join(user, '.claude', 'CLAUDE.md'), 'claude user');
    write(join(workspace, 'AGENTS.md'), 'project');
    write(join(workspace, '.claude', 'CLAUDE.md'), 'dot claude');
    write(join(workspace, 'CLAUDE.local.md'), 'local prefs');
    const m = await load();
    expect(m.text).toBe(
      ['workbench user', 'claude user', 'project', 'dot claude', 'local prefs'].join(
        MEMORY_SEPARATOR,
      ),
    );
    expect(m.sources.map((s) => s.scope)).toEqual([
      'user',
      'user',
      'workspace',
      'workspace',
      'local',
    ]);
  });

  it('reads AGENTS.md and CLAUDE.md of the folders it is given', async () => {
    write(join(workspace, 'pkg', 'CLAUDE.md'), 'pkg rules');
    write(join(workspace, 'pkg', 'sub', 'AGENTS.md'), 'sub rules');
    const m = await loadMemory({
      home,
      workspace,
      folders: [join(workspace, 'pkg'), join(workspace, 'pkg', 'sub'), join(workspace, 'empty')],
    });
    expect(m.text).toBe(['pkg rules', 'sub rules'].join(MEMORY_SEPARATOR));
    expect(m.sources.filter((s) => s.scope === 'subfolder')).toHaveLength(2);
  });
});

describe('odd repositories', () => {
  it('reads AGENTS.md when .claude is a file, not a folder (no ENOTDIR error)', async () => {
    writeFileSync(join(workspace, 'AGENTS.md'), 'ROOT RULES');
    writeFileSync(join(workspace, '.claude'), 'not a folder');
    const memory = await loadMemory({ home, workspace });
    expect(memory.text).toContain('ROOT RULES');
  });
});
