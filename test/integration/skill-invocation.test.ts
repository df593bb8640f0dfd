/**
 * Skills you invoke, as in Claude Code: `/name args` sends the skill's SKILL.md filled with its
 * arguments, its `!` lines run before it is sent, a skill wins over a recipe of the same name, a
 * workspace's skill needs the workspace trusted, and the skill's hooks take part from then on
 * (docs/skills.md#invoking-a-skill).
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

/** Writes a SKILL.md under `root/name`; returns the skill's real folder. */
function skill(root: string, name: string, frontmatter: string[], body: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'SKILL.md'),
    [
      '---',
      `name: ${name}`,
      `description: The ${name} skill`,
      ...frontmatter,
      '---',
      body,
      '',
    ].join('\n'),
  );
  return realpathSync(dir);
}

const userSkills = () => join(env.claudeDir, 'skills');
const workspaceSkills = () => join(env.sb.ws, '.claude', 'skills');

/** Sends `text`; the last user message the model got (or the error), and the thread. */
async function send(
  text: string,
  o: { trust?: boolean; turns?: ScriptedTurn[] } = {},
): Promise<{ sent?: string; error?: string; threadId?: string }> {
  const llm = createScriptedLlm(o.turns ?? [{ text: 'ok' }]);
  wb = await createWorkbench({ home: env.sb.home, workspace: env.sb.ws, llm, interactive: false });
  try {
    const run = await wb.chat.send({ text, approvalMode: 'auto', trust: o.trust });
    await run.finished;
    const user = llm.calls[0]!.request.messages.filter((m) => m.role === 'user').at(-1)!;
    return { sent: String(user.content), threadId: run.threadId };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('a skill invoked as /name', () => {
  it('sends its SKILL.md filled with the arguments, the folder and the session, its ! lines run', async () => {
    writeFileSync(join(env.sb.ws, 'ISSUE.txt'), 'login fails on Safari\n');
    const dir = skill(
      userSkills(),
      'fix-issue',
      ['allowed-tools: Bash(cat:*)', 'arguments: [issue, area]'],
      'Fix issue $issue in the $area ($ARGUMENTS).\nReport: !`cat ISSUE.txt`\nSee ${CLAUDE_SKILL_DIR}/checklist.md, session ${CLAUDE_SESSION_ID}.',
    );
    const { sent, threadId } = await send('/fix-issue 42 "login page"');
    expect(sent).toBe(
      `Fix issue 42 in the login page (42 "login page").\nReport: login fails on Safari\nSee ${dir}/checklist.md, session ${threadId}.`,
    );
  });

  it('wins over a recipe of the same name, and the / list offers it once; user-invocable: false ones not', async () => {
    skill(userSkills(), 'review', ['argument-hint: "[file]"'], 'Review with the skill: $ARGUMENTS');
    skill(userSkills(), 'background', ['user-invocable: false'], 'Background knowledge.');
    mkdirSync(join(env.claudeDir, 'commands'), { recursive: true });
    writeFileSync(
      join(env.claudeDir, 'commands', 'review.md'),
      'Review with the command: $ARGUMENTS\n',
    );
    const { sent } = await send('/review app.ts');
    expect(sent).toBe('Review with the skill: app.ts');
    const listed = await wb!.recipes.list({});
    expect(listed.filter((r) => r.name === 'review')).toEqual([
      { name: 'review', description: 'The review skill', source: 'skill', argument_hint: '[file]' },
    ]);
    expect(listed.map((r) => r.name)).not.toContain('background');
    await wb!.close();
    wb = undefined;
    expect((await send('/background')).sent).toBe('/background');
  });

  it("of an untrusted workspace is sent as typed, running nothing; once trusted it is the skill's", async () => {
    skill(workspaceSkills(), 'setup', ['allowed-tools: Bash(touch:*)'], 'Set up: !`touch ran.txt`');
    expect((await send('/setup')).sent).toBe('/setup');
    expect(existsSync(join(env.sb.ws, 'ran.txt'))).toBe(false);
    await wb!.close();
    wb = undefined;
    expect((await send('/setup', { trust: true })).sent).toBe('Set up: ');
    expect(existsSync(join(env.sb.ws, 'ran.txt'))).toBe(true);
  });

  it('runs none of its ! lines when the settings say disableSkillShellExecution', async () => {
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({ disableSkillShellExecution: true }),
    );
    skill(
      userSkills(),
      'status',
      ['allowed-tools: Bash'],
      'Status: !`touch ran.txt`\n```!\ntouch block.txt\n```',
    );
    expect((await send('/status')).sent).toBe(
      'Status: [shell execution disabled]\n[shell execution disabled]',
    );
    expect(existsSync(join(env.sb.ws, 'ran.txt'))).toBe(false);
    expect(existsSync(join(env.sb.ws, 'block.txt'))).toBe(false);
  });

  it('stops the send, naming the skill, when a ! line is not allowed', async () => {
    skill(
      userSkills(),
      'ship',
      ['allowed-tools: Bash(git status:*)'],
      'State: !`git push origin main`',
    );
    expect((await send('/ship')).error).toBe(
      'skill ship: !`git push origin main` is not run: no Bash rule of its allowed-tools covers it',
    );
  });

  it('brings its hooks from then on, its SKILL.md never read by a tool', async () => {
    const log = join(env.sb.home, '..', 'skill-hook.log');
    skill(
      userSkills(),
      'watch',
      ['hooks:', '  PostToolUse:', '    - hooks:', `        - command: "echo seen >> '${log}'"`],
      'Watch the writes.',
    );
    writeFileSync(join(env.sb.ws, 'a.txt'), 'a\n');
    const read: ScriptedTurn = { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] };
    const llm = createScriptedLlm([read, { text: 'done' }, read, { text: 'done again' }]);
    wb = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm,
      interactive: false,
    });
    const first = await wb.chat.send({ text: '/watch', approvalMode: 'auto' });
    await first.finished;
    expect(readFileSync(log, 'utf8')).toBe('seen\n');
    // The thread keeps the skill in use: a later run's plain message still has its hooks.
    await (
      await wb.chat.send({ text: 'again', threadId: first.threadId, approvalMode: 'auto' })
    ).finished;
    llm.assertComplete();
    expect(readFileSync(log, 'utf8')).toBe('seen\nseen\n');
  });
});
