/**
 * Claude Code's custom commands with `` !`command` `` lines, run as recipes: each covered command
 * runs in the workspace, in the sandbox, before the prompt is sent, and its output takes its place;
 * one the recipe does not allow, or the settings refuse, stops the send before anything runs
 * (docs/recipes.md#commands-in-a-recipe).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { detectSandbox } from '../../src/main/tools/sandbox/index.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';
const CANARY = 'canary-recipe-7d2a';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

function command(name: string, allowed: string, body: string): void {
  const dir = join(env.claudeDir, 'commands');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `---\nallowed-tools: ${allowed}\n---\n${body}\n`);
}

/** Sends `/text`; the message the model got, or the error the send threw. */
async function send(text: string): Promise<{ sent?: string; error?: string }> {
  const llm = createScriptedLlm([{ text: 'ok' }]);
  wb = await createWorkbench({ home: env.sb.home, workspace: env.sb.ws, llm, interactive: false });
  try {
    await (
      await wb.chat.send({ text, approvalMode: 'ask' })
    ).finished;
  } catch (err) {
    return { error: (err as Error).message };
  }
  const user = llm.calls[0]!.request.messages.filter((m) => m.role === 'user').at(-1)!;
  return { sent: String(user.content) };
}

describe("a custom command's !`command` lines", () => {
  it('run in the workspace before the prompt is sent, their output in their place', async () => {
    writeFileSync(join(env.sb.ws, 'CHANGES.txt'), 'fixed the parser\n');
    command(
      'commit',
      'Bash(cat:*), Bash(pwd)',
      '## Context\n- Where: !`pwd`\n- Changes: !`cat CHANGES.txt`\n- Missing: !`cat NOPE.txt`\nWrite a commit message for $ARGUMENTS.',
    );
    const { sent } = await send('/commit the fix');
    expect(sent).toMatch(
      new RegExp(
        `^## Context\\n- Where: ${env.sb.ws}\\n- Changes: fixed the parser\\n- Missing: cat: NOPE\\.txt: No such file or directory\\n\\(exit code 1\\)\\nWrite a commit message for the fix\\.$`,
      ),
    );
  });

  it.skipIf(!bwrapUsable)('run in the sandbox: the workbench home stays hidden', async () => {
    writeFileSync(join(env.sb.home, 'secret.txt'), CANARY);
    command('peek', 'Bash', `Home: !\`cat ${join(env.sb.home, 'secret.txt')}\``);
    const { sent } = await send('/peek');
    expect(sent).toMatch(/^Home: cat: \S+secret\.txt: No such file or directory/);
    expect(sent).not.toContain(CANARY);
  });

  it('stop the send, running none, when one is not allowed by the recipe or is denied by the settings', async () => {
    command('push', 'Bash(touch:*)', '!`touch ran.txt`\n!`git push origin main`');
    const notAllowed = await send('/push');
    expect(notAllowed.error).toBe(
      'recipe push: !`git push origin main` is not run: no Bash rule of its allowed-tools covers it',
    );
    await wb!.close();
    wb = undefined;
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(touch:*)'] } }),
    );
    command('mark', 'Bash(touch:*)', '!`touch ran.txt`');
    const denied = await send('/mark');
    expect(denied.error).toMatch(
      /^recipe mark: !`touch ran\.txt` is not run: denied by your permission rule Bash\(touch:\*\) \(\S+settings\.json\)$/,
    );
    await wb!.close();
    wb = undefined;
    command('wipe', 'Bash', '!`rm -rf ~`');
    const risky = await send('/wipe');
    expect(risky.error).toMatch(
      /^recipe wipe: !`rm -rf ~` is not run: this command .*always needs a person's approval: run it yourself$/,
    );
    expect(existsSync(join(env.sb.ws, 'ran.txt'))).toBe(false);
  });
});
