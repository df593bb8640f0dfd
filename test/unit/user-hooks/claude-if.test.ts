/** A Claude Code handler's `if` (a permission rule): it runs only for the tool calls the rule covers. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUserHooks } from '../../../src/main/user-hooks/index.ts';
import type { ToolResult } from '../../../src/shared/types/index.ts';
import {
  memoryHookRuns,
  runTool,
  sandbox,
  settingsWith,
  testContext,
  ZOO,
  type Sandbox,
} from './helpers.ts';

const ZOO_SH = join(ZOO, 'claude', 'zoo.sh');
let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

type Handler = { command: string; if?: unknown };
const handler = (behaviour: string, tag: string, rule?: unknown): Handler => ({
  command: `${ZOO_SH} ${behaviour} ${tag}`,
  ...(rule !== undefined ? { if: rule } : {}),
});

/** The user hooks of the files as they are now, and a way to make a tool call through them. */
async function load() {
  const settings = settingsWith();
  const hookRuns = memoryHookRuns();
  const user = await createUserHooks({
    workspace: sb.ws,
    home: sb.home,
    settings,
    trusted: true,
    hookRuns,
  });
  const t = testContext(sb.ws, sb.home, settings);
  const hook = user.hooks.find((h) => h.name === 'claude-hooks');
  let n = 0;
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const c = { id: `tu_${++n}`, name, args };
    return hook ? hook.wrapToolCall!(t.ctx, c, runTool(t)) : { ...(await runTool(t)(c)) };
  };
  return { user, hookRuns, call, run: (command: string) => call('execute', { command }) };
}

async function setup(hooks: Record<string, Array<{ matcher?: string; hooks: Handler[] }>>) {
  mkdirSync(join(sb.ws, '.claude'), { recursive: true });
  writeFileSync(join(sb.ws, '.claude', 'settings.json'), JSON.stringify({ hooks }));
  return load();
}

describe("a Claude Code handler's if", () => {
  it('runs a Bash guard only for the commands its rule covers, inside compound commands, wrappers and quotes too', async () => {
    const { call, hookRuns } = await setup({
      PreToolUse: [{ matcher: 'Bash', hooks: [handler('exit2', 'rm', 'Bash(rm *)')] }],
    });
    expect((await call('execute', { command: 'ls -la' })).error).toBeUndefined();
    expect((await call('execute', { command: 'echo rmdir-is-not-rm' })).error).toBeUndefined();
    expect(hookRuns.rows).toHaveLength(0);
    for (const command of [
      'rm -f a.txt',
      'echo x && rm -f a.txt',
      'FOO=1 timeout 5 rm -f a.txt',
      "'r'\\m -f a.txt",
    ]) {
      expect((await call('execute', { command })).error).toBe(
        'blocked by hook zoo.sh: no writes here (rm)',
      );
    }
    expect(hookRuns.rows).toHaveLength(4);
  });

  it('matches path rules gitignore-style, through a symlink, for every tool of the family', async () => {
    mkdirSync(join(sb.ws, 'src'));
    symlinkSync(join(sb.ws, 'src'), join(sb.ws, 'code'));
    const { call } = await setup({
      PreToolUse: [
        {
          hooks: [
            handler('exit2', 'src', 'Edit(src/**/*.ts)'),
            handler('deny', 'env', 'Read(.env)'),
          ],
        },
      ],
    });
    expect((await call('write_file', { path: 'src/a.ts', content: 'x' })).error).toBe(
      'blocked by hook zoo.sh: no writes here (src)',
    );
    // Through the link the file is still in src/.
    expect((await call('write_file', { path: 'code/b.ts', content: 'x' })).error).toBe(
      'blocked by hook zoo.sh: no writes here (src)',
    );
    expect((await call('write_file', { path: 'notes.md', content: 'x' })).error).toBeUndefined();
    mkdirSync(join(sb.ws, 'deploy'));
    writeFileSync(join(sb.ws, 'deploy', '.env'), 'TOKEN=1\n');
    expect((await call('read_file', { path: 'deploy/.env' })).error).toBe(
      'blocked by hook zoo.sh: denied by env',
    );
    expect((await call('read_file', { path: 'notes.md' })).error).toBeUndefined();
  });

  it('is a listed problem, and the handler never runs, when it is not a rule or not on a tool event', async () => {
    const { user } = await setup({
      PreToolUse: [{ hooks: [handler('exit2', 'a', 'Bash(git *'), handler('exit2', 'b', 42)] }],
      Stop: [{ hooks: [handler('context', 'c', 'Bash(git *)')] }],
      PostToolUse: [{ matcher: 'Bash', hooks: [handler('context', 'd', 'Bash(git push *)')] }],
    });
    expect(user.infos.map((i) => [i.problem, i.condition])).toEqual([
      [expect.stringMatching(/"Bash\(git \*" is not a permission rule/), undefined],
      ['"if" must be a permission rule such as "Bash(git *)"', undefined],
      [
        expect.stringMatching(
          /^"if" is read only on tool events .*on Stop this handler never runs$/,
        ),
        undefined,
      ],
      [undefined, 'Bash(git push *)'],
    ]);
  });
});

describe('"disableAllHooks": true in a Claude Code settings file', () => {
  const write = (file: string, data: object) => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(data));
  };
  const guard = (tag: string) => ({
    PreToolUse: [{ matcher: 'Bash', hooks: [handler('exit2', tag)] }],
  });
  const userFile = () => join(sb.home, 'settings.json');
  const wsFile = () => join(sb.ws, '.claude', 'settings.json');

  it("in a workspace's settings switches off only the workspace's handlers, never the user's guards", async () => {
    write(userFile(), { hooks: guard('user') });
    write(wsFile(), { disableAllHooks: true, hooks: guard('ws') });
    const { user, run } = await load();
    expect(user.infos.map((i) => i.problem)).toEqual([
      `switched off by "disableAllHooks": true in ${wsFile()}`,
      undefined,
    ]);
    expect(user.diagnostics).toEqual([]);
    expect((await run('ls')).error).toBe('blocked by hook zoo.sh: no writes here (user)');
  });

  it("in the user's own settings switches off every Claude Code handler", async () => {
    write(userFile(), { disableAllHooks: true, hooks: guard('user') });
    write(wsFile(), { hooks: guard('ws') });
    const { user, run } = await load();
    expect(user.infos.map((i) => i.problem)).toEqual([
      `switched off by "disableAllHooks": true in ${userFile()}`,
      `switched off by "disableAllHooks": true in ${userFile()}`,
    ]);
    expect((await run('echo ran')).error).toBeUndefined();
  });

  it("in an administrator's managed settings; there allowManagedHooksOnly leaves only the managed handlers on, and the user's switch leaves them on", async () => {
    const managed = join(sb.home, '..', 'managed-settings.json');
    process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS = managed;
    try {
      write(managed, { allowManagedHooksOnly: true, hooks: guard('managed') });
      write(userFile(), { hooks: guard('user') });
      const { user, run } = await load();
      expect(user.infos.map((i) => i.problem)).toEqual([
        undefined,
        `switched off: only managed hooks run ("allowManagedHooksOnly" in ${managed})`,
      ]);
      expect((await run('ls')).error).toBe('blocked by hook zoo.sh: no writes here (managed)');
      // The user's own switch turns off their handlers, never the administrator's.
      write(managed, { hooks: guard('managed') });
      write(userFile(), { disableAllHooks: true, hooks: guard('user') });
      const mixed = await load();
      expect(mixed.user.infos.map((i) => i.problem)).toEqual([
        undefined,
        `switched off by "disableAllHooks": true in ${userFile()}`,
      ]);
      expect((await mixed.run('ls')).error).toBe(
        'blocked by hook zoo.sh: no writes here (managed)',
      );
      write(managed, { disableAllHooks: true, hooks: guard('managed') });
      expect(
        (await load()).user.infos.every(
          (i) => i.problem === `switched off by "disableAllHooks": true in ${managed}`,
        ),
      ).toBe(true);
    } finally {
      delete process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS;
    }
  });
});
