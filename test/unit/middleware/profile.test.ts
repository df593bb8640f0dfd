import { mkdtempSync, mkdirSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import { defaultSystemPrompt, loadAgentProfile } from '../../../src/main/agents/profile.ts';
import { createProfileHook } from '../../../src/main/middleware/profile.ts';
import { requestOf } from '../../helpers/model-request.ts';

let workspace: string;
let file: string;
beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'wb-profile-')));
  mkdirSync(join(workspace, '.workbench'));
  file = join(workspace, '.workbench', 'agent.yaml');
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

describe('loadAgentProfile', () => {
  it('gives working defaults without agent.yaml', async () => {
    const { profile, diagnostics } = await loadAgentProfile(workspace);
    expect(diagnostics).toEqual([]);
    expect(profile).toEqual({
      name: 'workbench',
      system_prompt: defaultSystemPrompt(workspace),
      context_window: 128_000,
      skills: { paths: [] },
      memory: { paths: [] },
      compaction: {},
    });
    expect(profile.model).toBeUndefined();
    expect(profile.tools).toBeUndefined();
    expect(profile.system_prompt).toContain(workspace);
    expect(profile.system_prompt).toContain('edit_file');
  });

  it('reads a valid file', async () => {
    writeFileSync(
      file,
      [
        'name: code-assistant',
        'model: qwen2.5-coder:7b',
        'system_prompt: |',
        '  You are a coding assistant.',
        '  Be brief.',
        'context_window: 32000',
        'tools: [read_file, grep]',
        'skills:',
        '  paths: [team-skills]',
        'memory:',
        '  paths:',
        '    - docs/AGENTS.md',
        'compaction:',
        '  strategy: summarization',
        '  trigger: 0.8',
        '  target_tokens: 20000',
        '  preserve_last_n: 6',
        '  protected_tokens: 4000',
      ].join('\n'),
    );
    const { profile, diagnostics } = await loadAgentProfile(workspace);
    expect(diagnostics).toEqual([]);
    expect(profile).toEqual({
      name: 'code-assistant',
      model: 'qwen2.5-coder:7b',
      system_prompt: 'You are a coding assistant.\nBe brief.\n',
      context_window: 32_000,
      tools: ['read_file', 'grep'],
      skills: { paths: ['team-skills'] },
      memory: { paths: ['docs/AGENTS.md'] },
      compaction: { strategy: 'summarization', trigger: 0.8, target_tokens: 20_000, preserve_last_n: 6, protected_tokens: 4_000 },
      source: file,
    });
  });

  it('accepts model as an object with a name', async () => {
    writeFileSync(file, 'model:\n  name: gpt-4o\n  temperature: 0\n');
    expect((await loadAgentProfile(workspace)).profile.model).toBe('gpt-4o');
  });

  it('reports bad YAML with file:line and uses the defaults', async () => {
    writeFileSync(file, 'name: ok\nmodel: [unclosed\ncontext_window: 1000\n');
    const { profile, diagnostics } = await loadAgentProfile(workspace);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: invalid YAML`));
    expect(profile.name).toBe('workbench');
    expect(profile.context_window).toBe(128_000);
  });

  it('drops only the fields of the wrong type, with their line, and keeps the rest', async () => {
    writeFileSync(file, 'name: mine\ncontext_window: lots\ncompaction:\n  strategy: magic\ncolour: blue\nmemory:\n  paths: [a.md]\n');
    const { profile, diagnostics } = await loadAgentProfile(workspace);
    expect(profile.name).toBe('mine');
    expect(profile.memory.paths).toEqual(['a.md']);
    expect(profile.context_window).toBe(128_000);
    expect(profile.compaction).toEqual({});
    expect(diagnostics).toEqual([
      `${file}:5: unknown setting "colour" ignored`,
      expect.stringMatching(new RegExp(`:2: context_window: .*; using the default$`)),
      expect.stringMatching(new RegExp(`:4: compaction.strategy: .*; using the default$`)),
    ]);
  });

  it('reports a file that is not a mapping', async () => {
    writeFileSync(file, '- just\n- a list\n');
    const { profile, diagnostics } = await loadAgentProfile(workspace);
    expect(diagnostics).toEqual([`${file}:1: expected a mapping of settings (name, model, system_prompt, …); using defaults`]);
    expect(profile.name).toBe('workbench');
  });

  it('treats an empty file as defaults', async () => {
    writeFileSync(file, '# nothing yet\n');
    expect(await loadAgentProfile(workspace)).toMatchObject({ diagnostics: [], profile: { name: 'workbench' } });
  });
});

describe('createProfileHook', () => {
  const ctx = {} as RunContext;
  const tool = (name: string) => ({ name, description: name, parameters: {} });

  it('puts the prompt before every other system block, without mutating the request', async () => {
    const hook = createProfileHook({ system_prompt: 'P' });
    const req = requestOf([{ role: 'user', content: 'hi' }], ['S']);
    const out = await hook.modifyRequest!(ctx, req);
    expect(out.system).toEqual(['P', 'S']);
    expect(out.messages).toBe(req.messages);
    expect(req.system).toEqual(['S']);
  });

  it('offers only the allowlisted tools, and every tool without a list', async () => {
    const req = { ...requestOf([{ role: 'user', content: 'hi' }]), tools: [tool('read_file'), tool('execute'), tool('grep')] };
    const limited = await createProfileHook({ system_prompt: 'P', tools: ['grep', 'read_file'] }).modifyRequest!(ctx, req);
    expect(limited.tools.map((t) => t.name)).toEqual(['read_file', 'grep']);
    const all = await createProfileHook({ system_prompt: 'P' }).modifyRequest!(ctx, req);
    expect(all.tools.map((t) => t.name)).toEqual(['read_file', 'execute', 'grep']);
  });
});
