/** Agent profiles: the profile-file format (incl. Claude Code's), the registry's sources, precedence and trust gating. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseProfileFile } from '../../../src/main/agents/profile-file.ts';
import { loadAgentRegistry } from '../../../src/main/agents/registry.ts';

let base: string;
let ws: string;
let home: string;
let claudeHome: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-agents-')));
  ws = join(base, 'ws');
  home = join(base, 'home');
  claudeHome = join(base, 'claude');
  for (const d of [ws, home, claudeHome]) mkdirSync(d);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}
const load = (trusted: boolean) => loadAgentRegistry({ workspace: ws, home, trusted, claudeHome });

describe('parseProfileFile', () => {
  it("reads a Claude Code agent: comma-separated Claude tool names become ours, 'inherit' keeps the thread's model", () => {
    const text =
      '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, Glob, Bash, LS\nmodel: inherit\ncolor: blue\n---\nYou review code.\n';
    const parsed = parseProfileFile(text, '/x/.claude/agents/reviewer.md', 'reviewer');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.fields).toEqual({
      name: 'reviewer',
      description: 'Reviews code',
      tools: ['read_file', 'grep', 'glob', 'execute', 'ls'],
      system_prompt: 'You review code.',
    });
  });

  it('reports a bad field at its line and keeps the others; resolves script next to the file', () => {
    const text =
      '---\ndescription: ok\nmax_iterations: many\ntools: [Write, WebFetch]\nscript: ./hooks.ts\n---\nBody\n';
    const parsed = parseProfileFile(text, '/p/agents/w.md', 'w');
    expect(parsed.diagnostics).toEqual([
      '/p/agents/w.md:3: max_iterations: must be a whole number from 1 to 1000; ignored',
      '/p/agents/w.md:4: tools: unknown tool "WebFetch" (no workbench tool has that name)',
    ]);
    expect(parsed.fields).toMatchObject({
      name: 'w',
      description: 'ok',
      tools: ['write_file', 'WebFetch'],
      script: '/p/agents/hooks.ts',
    });
  });

  it("reads Claude Code's skills as names to preload, and paths as folders of skills", () => {
    const text =
      '---\ndescription: d\nskills: [api-conventions, my-plugin:review, ../extra, ~/shared, ./local]\n---\nBody\n';
    const parsed = parseProfileFile(text, '/p/agents/w.md', 'w');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.fields).toMatchObject({
      preload_skills: ['api-conventions', 'my-plugin:review'],
      skills: ['/p/extra', join(homedir(), 'shared'), '/p/agents/local'],
    });
  });

  it('refuses a file without frontmatter or with broken YAML, naming the file and line', () => {
    expect(parseProfileFile('just text', '/a.md', 'a')).toEqual({
      diagnostics: [
        '/a.md:1: expected YAML frontmatter between --- lines (name, description, tools, …)',
      ],
    });
    const broken = parseProfileFile('---\nname: a\ntools: [Read\n---\nx', '/b.md', 'b');
    expect(broken.fields).toBeUndefined();
    expect(broken.diagnostics[0]).toMatch(/^\/b\.md:\d+: invalid YAML/);
  });
});

describe('loadAgentRegistry', () => {
  beforeEach(() => {
    write(
      join(ws, '.workbench', 'agents', 'researcher.md'),
      '---\ndescription: workspace researcher\n---\nW',
    );
    write(
      join(ws, '.claude', 'agents', 'tester.md'),
      '---\nname: tester\ndescription: claude project tester\ntools: Bash\n---\nT',
    );
    write(join(home, 'agents', 'researcher.md'), '---\ndescription: user researcher\n---\nU');
    write(
      join(claudeHome, 'agents', 'helper.md'),
      '---\nname: helper\ndescription: claude user helper\n---\nH',
    );
    write(
      join(ws, '.workbench', 'agent.yaml'),
      'name: mine\nsubagents:\n  - name: planner\n    description: plans\n    system_prompt: You plan.\n  - description: nameless\n',
    );
  });

  it('trusted: every source counts, the workspace wins a name, main is agent.yaml', async () => {
    const r = await load(true);
    expect(r.agents.map((a) => [a.name, a.source, a.inert])).toEqual([
      ['main', 'agent.yaml', false],
      ['helper', 'claude-user', false],
      ['planner', 'agent.yaml', false],
      ['researcher', 'workspace', false],
      ['tester', 'claude-project', false],
    ]);
    expect(r.get('researcher')!.profile.system_prompt).toBe('W');
    expect(r.get('planner')!.profile.system_prompt).toBe('You plan.');
    expect(r.get('tester')!.profile.tools).toEqual(['execute']);
    expect(r.get('main')!.profile.name).toBe('mine');
    expect(r.diagnostics).toEqual([
      `${join(ws, '.workbench', 'agent.yaml')}:6: subagents[1]: needs a name (letters, digits, "-", "_", "."); ignored`,
    ]);
  });

  it('untrusted: workspace profiles are inert (listed, never run); user profiles still count', async () => {
    const r = await load(false);
    // The user's researcher takes over the name from the inert workspace one.
    expect(r.get('researcher')!.source).toBe('user');
    expect(r.get('tester')).toBeUndefined();
    expect(r.get('planner')).toBeUndefined();
    expect(r.agents.find((a) => a.name === 'tester')).toMatchObject({ inert: true });
    expect(r.subagents().map((a) => a.name)).toEqual(['helper', 'researcher']);
  });
});

describe('loadAgentRegistry and links', () => {
  it('refuses a workspace profile that links out of the workspace and the config folders', async () => {
    const outside = join(base, 'outside.md');
    writeFileSync(outside, '---\ndescription: private notes\n---\nSECRET');
    mkdirSync(join(ws, '.workbench', 'agents'), { recursive: true });
    symlinkSync(outside, join(ws, '.workbench', 'agents', 'leak.md'));
    const r = await load(true);
    expect(r.get('leak')).toBeUndefined();
    expect(
      r.diagnostics.some((d) => d.includes('leak.md') && d.includes('outside the workspace')),
    ).toBe(true);
  });

  it('reports a FIFO as agent.yaml or as a profile and loads the rest, without waiting for a writer', async () => {
    mkdirSync(join(ws, '.workbench', 'agents'), { recursive: true });
    execFileSync('mkfifo', [join(ws, '.workbench', 'agent.yaml')]);
    execFileSync('mkfifo', [join(ws, '.workbench', 'agents', 'trap.md')]);
    write(
      join(ws, '.workbench', 'agents', 'planner.md'),
      '---\ndescription: Plans\n---\nYou plan.',
    );
    const r = await load(true);
    expect(r.diagnostics).toEqual([
      `${join(ws, '.workbench', 'agent.yaml')}: cannot read: not a regular file`,
      `${join(ws, '.workbench', 'agents', 'trap.md')}: cannot read: not a regular file`,
    ]);
    expect(r.agents.map((a) => a.name)).toEqual(['main', 'planner']);
    expect(r.get('planner')!.profile.system_prompt).toBe('You plan.');
  });

  it('reports a profile over 1 MB instead of reading it', async () => {
    write(
      join(ws, '.workbench', 'agents', 'huge.md'),
      `---\ndescription: Huge\n---\n${'x'.repeat(1024 * 1024)}`,
    );
    const r = await load(true);
    expect(r.diagnostics).toEqual([
      `${join(ws, '.workbench', 'agents', 'huge.md')}: cannot read: larger than 1 MB`,
    ]);
    expect(r.get('huge')).toBeUndefined();
  });
});
