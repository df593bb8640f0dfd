/**
 * The hooks of a skill's frontmatter, as Claude Code registers them: they take part once the skill
 * is used (its SKILL.md read) and for the rest of the thread, a `once` handler at most once in it;
 * the hooks panel lists them with their skill.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { runCommand, useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

/** A user skill `fmt` whose hooks log each write it sees and, once, a command. */
function writeSkill(): { skillFile: string; writes: string; once: string } {
  const dir = join(env.sb.home, 'skills', 'fmt');
  mkdirSync(dir, { recursive: true });
  const writes = join(env.sb.home, '..', 'writes.log');
  const once = join(env.sb.home, '..', 'once.log');
  writeFileSync(
    join(dir, 'SKILL.md'),
    [
      '---',
      'name: fmt',
      'description: Formats each file after it is written',
      'hooks:',
      '  PostToolUse:',
      '    - matcher: Write',
      '      hooks:',
      `        - command: "cat >> '${writes}'; echo >> '${writes}'"`,
      '  PreToolUse:',
      '    - matcher: Bash',
      '      hooks:',
      `        - command: "echo ran >> '${once}'"`,
      '          once: true',
      '---',
      'Format what you write.',
      '',
    ].join('\n'),
  );
  return { skillFile: realpathSync(join(dir, 'SKILL.md')), writes, once };
}

const write = (path: string): ScriptedTurn => ({
  toolCalls: [{ name: 'write_file', args: { path, content: 'x\n' } }],
});

describe("a skill's frontmatter hooks", () => {
  it('join once the skill is read and stay for the thread; a once handler runs once in it', async () => {
    const { skillFile, writes, once } = writeSkill();
    const llm = createScriptedLlm([
      write('before.txt'),
      { toolCalls: [{ name: 'read_file', args: { path: skillFile } }] },
      write('after.txt'),
      runCommand('echo 1'),
      runCommand('echo 2'),
      { text: 'done' },
      write('next-run.txt'),
      runCommand('echo 3'),
      { text: 'done again' },
    ]);
    const wb = await scripted.open(llm);
    const first = await wb.chat.send({ text: 'go', approvalMode: 'auto' });
    await first.finished;
    const second = await wb.chat.send({
      text: 'more',
      threadId: first.threadId,
      approvalMode: 'auto',
    });
    await second.finished;
    llm.assertComplete();
    const logged = readFileSync(writes, 'utf8');
    expect(logged).not.toContain('before.txt');
    expect(logged).toContain('after.txt');
    expect(logged).toContain('next-run.txt');
    expect(readFileSync(once, 'utf8')).toBe('ran\n');
  });

  it('do not run in a thread that never read the skill, and are listed with their skill', async () => {
    const { writes } = writeSkill();
    const wb = await scripted.open(createScriptedLlm([write('a.txt'), { text: 'done' }]));
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'auto' })
    ).finished;
    expect(existsSync(writes)).toBe(false);
    const listed = (await wb.hooks!.list({ workspace: env.sb.ws })).hooks.filter((h) => h.skill);
    expect(listed.map((h) => [h.events[0], h.skill, h.once ?? false])).toEqual([
      ['PostToolUse', 'fmt', false],
      ['PreToolUse', 'fmt', true],
    ]);
  });
  it("of an untrusted workspace's skill never run, even once the skill is read", async () => {
    const dir = join(env.sb.ws, '.claude', 'skills', 'ws-fmt');
    mkdirSync(dir, { recursive: true });
    const ran = join(env.sb.home, '..', 'ws-ran.log');
    writeFileSync(
      join(dir, 'SKILL.md'),
      [
        '---',
        'name: ws-fmt',
        'description: A workspace skill with a hook',
        'hooks:',
        '  PreToolUse:',
        '    - hooks:',
        `        - command: "echo ran >> '${ran}'"`,
        '---',
        'Body.',
        '',
      ].join('\n'),
    );
    const skillFile = realpathSync(join(dir, 'SKILL.md'));
    const wb = await scripted.open(
      createScriptedLlm([
        { toolCalls: [{ name: 'read_file', args: { path: skillFile } }] },
        runCommand('echo after'),
        { text: 'done' },
      ]),
    );
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'auto' })
    ).finished;
    expect(existsSync(ran)).toBe(false);
    const [listed] = (await wb.hooks!.list({ workspace: env.sb.ws })).hooks.filter((h) => h.skill);
    expect(listed).toMatchObject({ skill: 'ws-fmt', trusted: false });
    expect(listed?.problem).toMatch(/not trusted/);
  });
});
