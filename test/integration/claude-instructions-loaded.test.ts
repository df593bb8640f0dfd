/**
 * Claude Code's InstructionsLoaded: each memory file that joins a run's requests is told once — at
 * the run's start, through an import, or through a subfolder the agent touched — matched on its
 * load reason, for audit logs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

const logged = (file: string) =>
  readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('InstructionsLoaded', () => {
  it('tells each memory file once, with why it was loaded, and matches on the reason', async () => {
    const ws = env.sb.ws;
    mkdirSync(join(ws, 'docs'));
    mkdirSync(join(ws, 'pkg', 'src'), { recursive: true });
    writeFileSync(join(ws, 'AGENTS.md'), 'Use tabs.\n@docs/style.md\n');
    writeFileSync(join(ws, 'docs', 'style.md'), 'Short names.\n');
    writeFileSync(join(ws, 'pkg', 'AGENTS.md'), 'The package has its own tests.\n');
    writeFileSync(join(ws, 'pkg', 'src', 'a.ts'), 'export const a = 1;\n');
    const all = join(env.sb.home, '..', 'all.log');
    const nested = join(env.sb.home, '..', 'nested.log');
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({
        hooks: {
          InstructionsLoaded: [
            { hooks: [{ command: `cat >> '${all}'; echo >> '${all}'` }] },
            { matcher: 'nested_traversal', hooks: [{ command: `cat >> '${nested}'; echo >> '${nested}'` }] },
          ],
        },
      }),
    );
    const read = (path: string) => ({ toolCalls: [{ name: 'read_file', args: { path } }] });
    await scripted.run([read('pkg/src/a.ts'), read('pkg/src/a.ts'), { text: 'done' }]);

    const told = logged(all).map((i) => [i.load_reason, i.file_path, i.memory_type]);
    expect(told).toEqual([
      ['session_start', join(ws, 'AGENTS.md'), 'Project'],
      ['include', join(ws, 'docs', 'style.md'), 'Project'],
      ['nested_traversal', join(ws, 'pkg', 'AGENTS.md'), 'Project'],
    ]);
    expect(logged(all)[1]).toMatchObject({ hook_event_name: 'InstructionsLoaded', parent_file_path: join(ws, 'AGENTS.md') });
    expect(logged(nested)).toEqual([
      expect.objectContaining({ file_path: join(ws, 'pkg', 'AGENTS.md'), trigger_file_path: join(ws, 'pkg', 'src', 'a.ts') }),
    ]);
  });

  it("loads Claude Code's rules: plain ones at the start, a rule with paths once a matching file is read", async () => {
    const ws = env.sb.ws;
    mkdirSync(join(ws, '.claude', 'rules', 'api'), { recursive: true });
    mkdirSync(join(ws, 'src', 'api'), { recursive: true });
    writeFileSync(join(ws, '.claude', 'rules', 'style.md'), 'Prefer small functions.\n');
    writeFileSync(join(ws, '.claude', 'rules', 'api', 'routes.md'), '---\npaths:\n  - "src/api/**/*.ts"\n---\nEvery route validates its input.\n');
    writeFileSync(join(ws, 'src', 'api', 'users.ts'), 'export {};\n');
    writeFileSync(join(ws, 'README.md'), 'hello\n');
    const log = join(env.sb.home, '..', 'rules.log');
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({ hooks: { InstructionsLoaded: [{ hooks: [{ command: `cat >> '${log}'; echo >> '${log}'` }] }] } }),
    );
    const read = (path: string) => ({ toolCalls: [{ name: 'read_file', args: { path } }] });
    const { llm } = await scripted.run([read('README.md'), read('src/api/users.ts'), { text: 'done' }]);

    const system = (i: number) => llm.calls[i]!.request.system.join('\n');
    expect(system(0)).toContain('Prefer small functions.');
    expect(system(1)).not.toContain('Every route validates its input.');
    expect(system(2)).toContain('Every route validates its input.');
    expect(system(2)).not.toContain('paths:');
    const rule = join(ws, '.claude', 'rules', 'api', 'routes.md');
    expect(logged(log).map((i) => [i.load_reason, i.file_path])).toEqual([
      ['session_start', join(ws, '.claude', 'rules', 'style.md')],
      ['path_glob_match', rule],
    ]);
    expect(logged(log)[1]).toMatchObject({ globs: ['src/api/**/*.ts'], trigger_file_path: join(ws, 'src', 'api', 'users.ts') });
  });
});
