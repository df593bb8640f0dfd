/**
 * Claude Code's permission rules (`permissions.deny`, `ask`, `allow` of its settings files) hold in a
 * whole run, as at home: deny refuses whatever the mode, hooks off included; ask always asks; allow
 * lifts the mode's prompt, a workspace's allow only once it is trusted (docs/security.md).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import type { ApprovalMode } from '../../src/shared/types/index.ts';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';
import { detectSandbox } from '../../src/main/tools/sandbox/index.ts';

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const userRules = () => join(env.claudeDir, 'settings.json');
const workspaceRules = () => join(env.sb.ws, '.claude', 'settings.json');
function writeRules(file: string, permissions: object): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ permissions }));
}
const run = (command: string) => ({ toolCalls: [{ name: 'execute', args: { command } }] });

/** Runs the script; returns what the model was told for each tool call, and the run's diagnostics. */
async function runScript(script: ScriptedTurn[], approvalMode: ApprovalMode, noHooks = false) {
  const llm = createScriptedLlm([...script, { text: 'done' }]);
  wb = await createWorkbench({ home: env.sb.home, workspace: env.sb.ws, llm, interactive: false });
  const diagnostics: string[] = [];
  wb.subscribe((e) => {
    if (e.event === 'error') diagnostics.push(e.data.message);
  });
  await (
    await wb.chat.send({ text: 'go', approvalMode, noHooks })
  ).finished;
  const last = llm.calls.at(-1)!.request.messages;
  return { told: last.filter((m) => m.role === 'tool').map((m) => String(m.content)), diagnostics };
}

/** What the model was told for each tool call of the script. */
async function results(
  script: ScriptedTurn[],
  approvalMode: ApprovalMode,
  noHooks = false,
): Promise<string[]> {
  return (await runScript(script, approvalMode, noHooks)).told;
}

describe("Claude Code's permission rules", () => {
  it('deny refuses a covered call in auto mode with hooks off, inside a compound command too, and names the rule', async () => {
    writeFileSync(join(env.sb.ws, 'keep.txt'), 'x');
    writeFileSync(join(env.sb.ws, '.env'), 'TOKEN=1\n');
    writeRules(userRules(), { deny: ['Bash(rm *)', 'Read(./.env)'] });
    const told = await results(
      [
        run('echo ok && rm -f keep.txt'),
        { toolCalls: [{ name: 'read_file', args: { path: '.env' } }] },
        run('echo fine'),
      ],
      'auto',
      true,
    );
    expect(told[0]).toBe(`Error: denied by your permission rule Bash(rm *) (${userRules()})`);
    expect(told[1]).toBe(`Error: denied by your permission rule Read(./.env) (${userRules()})`);
    expect(told[2]).toMatch(/^fine\n/);
    expect(existsSync(join(env.sb.ws, 'keep.txt'))).toBe(true);
  });

  it("Read and Edit rules judge the files a command's file commands and redirections name, as Claude Code's do", async () => {
    writeFileSync(join(env.sb.ws, '.env'), 'TOKEN=1\n');
    writeFileSync(join(env.sb.ws, '.envrc'), 'export A=1\n');
    mkdirSync(join(env.sb.ws, 'sub'));
    writeFileSync(join(env.sb.ws, 'sub', '.env'), 'TOKEN=2\n');
    writeFileSync(join(env.sb.ws, 'notes.md'), 'keep\n');
    writeRules(userRules(), {
      deny: ['Read(./.env)', 'Edit(./notes.md)', 'Write(./draft.md)'],
      ask: ['Read(./config/**)'],
      allow: ['Read(./.envrc)'],
    });
    const rule = (text: string) => `your permission rule ${text} (${userRules()})`;
    const told = await results(
      [
        run('cat .env'),
        run('cd sub && grep -n TOKEN .env'),
        run('head -c 3 .e*'),
        run('echo gone > notes.md'),
        run('cat config/app.yml'),
        run('grep -rn .env README.md; echo searched'),
        run('echo x | tee draft.md'),
      ],
      'auto',
    );
    expect(told[0]).toBe(`Error: denied by ${rule('Read(./.env)')}: this command reads .env`);
    // A name without a slash matches at any depth, and a cd is followed.
    expect(told[1]).toBe(`Error: denied by ${rule('Read(./.env)')}: this command reads sub/.env`);
    // The shell would expand the glob to .env and .envrc.
    expect(told[2]).toBe(`Error: denied by ${rule('Read(./.env)')}: this command reads .env`);
    expect(told[3]).toBe(
      `Error: denied by ${rule('Edit(./notes.md)')}: this command writes notes.md`,
    );
    expect(told[4]).toMatch(
      /asks before this call: this command reads config\/app\.yml, so it always needs a person's approval/,
    );
    // grep's first word is its pattern, not a file.
    expect(told[5]).toMatch(/searched\n/);
    expect(told[6]).toBe(
      `Error: denied by ${rule('Write(./draft.md)')}: this command writes draft.md`,
    );
    expect(existsSync(join(env.sb.ws, 'notes.md'))).toBe(true);
    await wb!.close();
    // An allow rule for a file never lets a command run by itself.
    const ask = await results([run('wc -l .envrc')], 'ask');
    expect(ask[0]).toMatch(/^Error: the user did not allow execute/);
  });

  it.skipIf(!bwrapUsable)(
    'Read and Edit deny rules hold in the sandbox for a command that names no file: hidden, read-only; a wildcard elsewhere is said',
    async () => {
      const files: Record<string, string> = {
        '.env': 'TOKEN=canary-top',
        'sub/.env': 'TOKEN=canary-deep',
        'secrets/key.pem': 'canary-key',
        'notes.md': 'keep',
        'other.txt': 'visible',
      };
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(join(env.sb.ws, rel, '..'), { recursive: true });
        writeFileSync(join(env.sb.ws, rel), text);
      }
      writeRules(userRules(), {
        deny: ['Read(./.env)', 'Read(./secrets/**)', 'Edit(./notes.md)', 'Read(~/**/*.pem)'],
      });
      const { told, diagnostics } = await runScript(
        [
          // Through a variable, no file command names the file: only the sandbox stands in the way.
          run(
            'for f in .env sub/.env secrets/key.pem other.txt; do printf "%s=[%s] " "$f" "$(cat "$f" 2>&1)"; done',
          ),
          run('f=notes.md; echo gone > "$f"'),
        ],
        'auto',
      );
      expect(told[0]).toMatch(
        /^\.env=\[cat: \.env: Permission denied\] sub\/\.env=\[cat: sub\/\.env: Permission denied\] secrets\/key\.pem=\[cat: secrets\/key\.pem: No such file or directory\] other\.txt=\[visible\]/,
      );
      expect(told[0]).toContain('command sandboxed');
      expect(told[1]).toMatch(/Read-only file system/);
      expect(readFileSync(join(env.sb.ws, 'notes.md'), 'utf8')).toBe('keep');
      expect(diagnostics).toEqual([
        `${userRules()}: Read(~/**/*.pem) keeps the file tools and the commands that name its files from them, not every sandboxed command: a sandbox hides paths, and a pattern with wildcards outside the workspace cannot be listed`,
      ]);
    },
  );

  it('ask makes a person approve in auto mode; allow lifts the prompt of ask mode; an untrusted workspace cannot allow', async () => {
    writeRules(userRules(), { ask: ['Bash(git push *)'], allow: ['Bash(echo *)'] });
    writeRules(workspaceRules(), { allow: ['Bash(printf *)'] });
    const auto = await results([run('git push origin main')], 'auto');
    expect(auto[0]).toBe(
      `Error: not run: your permission rule Bash(git push *) (${userRules()}) asks before this call, so it always needs a person's approval, and nobody can approve it here`,
    );
    await wb!.close();
    const ask = await results([run('echo lifted'), run('printf held')], 'ask');
    expect(ask[0]).toMatch(/^lifted\n/);
    expect(ask[1]).toMatch(/^Error: the user did not allow execute/);
  });

  it('a rule that does not parse is a diagnostic of the run, and the others still hold', async () => {
    writeRules(userRules(), { deny: ['Bash(rm *', 42, 'Bash(rm *)'] });
    const { told, diagnostics } = await runScript([run('rm -f x')], 'auto');
    expect(diagnostics).toEqual([
      `${userRules()}: permissions.deny: "Bash(rm *" is not a permission rule (Tool or Tool(pattern))`,
      `${userRules()}: permissions.deny: 42 is not a rule`,
    ]);
    expect(told[0]).toBe(`Error: denied by your permission rule Bash(rm *) (${userRules()})`);
  });

  it("an administrator's managed settings hold too: their deny wins over the user's allow", async () => {
    const managed = process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS!;
    writeRules(managed, { deny: ['Bash(curl *)'] });
    writeRules(userRules(), { allow: ['Bash(curl *)'] });
    const told = await results([run('curl --version')], 'ask');
    expect(told[0]).toBe(`Error: denied by your permission rule Bash(curl *) (${managed})`);
  });

  it("an administrator's allowManagedPermissionRulesOnly leaves only the managed allow rules", async () => {
    const managed = process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS!;
    writeFileSync(
      managed,
      JSON.stringify({
        allowManagedPermissionRulesOnly: true,
        permissions: { allow: ['Bash(echo managed*)'] },
      }),
    );
    writeRules(userRules(), { allow: ['Bash(echo *)'] });
    const told = await results([run('echo managed-ok'), run('echo mine')], 'ask');
    expect(told[0]).toMatch(/^managed-ok\n/);
    expect(told[1]).toMatch(/^Error: the user did not allow execute/);
  });

  it('disableBypassPermissionsMode refuses a run in auto mode before any thread exists, in any settings file; ask mode still runs', async () => {
    const managed = process.env.WORKBENCH_CLAUDE_MANAGED_SETTINGS!;
    writeFileSync(
      managed,
      JSON.stringify({ permissions: { disableBypassPermissionsMode: 'disable' } }),
    );
    const llm = createScriptedLlm([{ text: 'done' }]);
    wb = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm,
      interactive: false,
    });
    await expect(wb.chat.send({ text: 'go', approvalMode: 'auto' })).rejects.toThrow(
      `the auto approval mode is switched off by "disableBypassPermissionsMode": "disable" in ${managed}; run in ask or auto-edit mode`,
    );
    expect(wb.threads.list()).toEqual([]);
    expect(llm.calls).toHaveLength(0);
    // An untrusted workspace's own file counts too: it only takes a mode away.
    writeFileSync(managed, '{}');
    writeRules(workspaceRules(), { disableBypassPermissionsMode: 'disable' });
    await expect(wb.chat.send({ text: 'go', approvalMode: 'auto' })).rejects.toThrow(
      workspaceRules(),
    );
    const ask = await (await wb.chat.send({ text: 'go', approvalMode: 'ask' })).finished;
    expect(ask.stop_reason).toBe('completed');
  });
});

describe("Claude Code's permissions.denyInsteadOfPrompting", () => {
  it('refuses at once, in the app too, what would ask a person; what an allow rule or the mode lets run still runs', async () => {
    writeRules(userRules(), {
      denyInsteadOfPrompting: true,
      allow: ['Write(notes/**)'],
      ask: ['Bash(git push *)'],
    });
    const write = (path: string) => ({
      toolCalls: [{ name: 'write_file', args: { path, content: 'x\n' } }],
    });
    const llm = createScriptedLlm([
      write('src/app.ts'),
      write('notes/today.md'),
      run('git push origin main'),
      { text: 'done' },
    ]);
    wb = await createWorkbench({ home: env.sb.home, workspace: env.sb.ws, llm, interactive: true });
    const prompts: string[] = [];
    wb.subscribe((e) => {
      if (e.event === 'on_approval_request') prompts.push(e.data.preview);
    });
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'ask' })
    ).finished;
    const told = llm.calls
      .at(-1)!
      .request.messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    const why = `permissions.denyInsteadOfPrompting in ${userRules()} refuses what would ask`;
    expect(told[0]).toBe(`Error: not run: write_file needs a person's approval here, and ${why}`);
    expect(told[1]).not.toMatch(/not run/);
    expect(told[2]).toMatch(
      /^Error: not run: .*git push.*always needs a person's approval, and permissions\.denyInsteadOfPrompting/,
    );
    expect(prompts).toEqual([]);
    expect(existsSync(join(env.sb.ws, 'src', 'app.ts'))).toBe(false);
    expect(readFileSync(join(env.sb.ws, 'notes', 'today.md'), 'utf8')).toBe('x\n');
  });
});
