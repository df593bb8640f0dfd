/**
 * Claude Code's UserPromptExpansion: a recipe (Claude's custom command) typed as `/name args` is
 * told to the handlers matching its name before the prompt it expands into reaches the model; one
 * may refuse it or add context.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import { useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

function expansionHook(matcher: string, command: string): void {
  writeFileSync(
    join(env.claudeDir, 'settings.json'),
    JSON.stringify({ hooks: { UserPromptExpansion: [{ matcher, hooks: [{ command }] }] } }),
  );
}

/** A user recipe in ~/.claude/commands (needs no trust), sent as typed in the composer. */
async function sendRecipe(text: string) {
  mkdirSync(join(env.claudeDir, 'commands'), { recursive: true });
  writeFileSync(join(env.claudeDir, 'commands', 'deploy.md'), 'Deploy $ARGUMENTS to staging.\n');
  const llm = createScriptedLlm([{ text: 'deploying' }]);
  const wb = await scripted.open(llm);
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  const run = await wb.chat.send({ text, approvalMode: 'auto' });
  return { llm, events, result: await run.finished };
}

describe('UserPromptExpansion', () => {
  it('tells the typed command and its arguments, and its context reaches the model', async () => {
    const kept = join(env.sb.home, '..', 'expansion.json');
    expansionHook('deploy', `cat > '${kept}'; echo 'Staging is frozen until Friday.'`);
    const { llm } = await sendRecipe('/deploy api');
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toMatchObject({
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'deploy',
      command_args: 'api',
      command_source: 'user',
      prompt: '/deploy api',
    });
    const request = JSON.stringify(llm.calls[0]!.request.messages);
    expect(request).toContain('Deploy api to staging.');
    expect(request).toContain('Staging is frozen until Friday.');
  });

  it('refuses the command on exit 2: nothing reaches the model and the user is told why', async () => {
    expansionHook('deploy|release', "echo 'deploys need a ticket' >&2; exit 2");
    const { llm, events, result } = await sendRecipe('/deploy api');
    expect(llm.calls).toHaveLength(0);
    expect(result.stop_reason).toBe('blocked');
    const blocked = events.find((e) => e.event === 'on_blocked');
    expect(blocked?.data).toMatchObject({ target: 'message', reason: 'deploys need a ticket' });
  });

  it("tells a workspace's skill invoked as /name as the project's", async () => {
    const kept = join(env.sb.home, '..', 'expansion.json');
    expansionHook('release', `cat > '${kept}'`);
    const dir = join(env.sb.ws, '.claude', 'skills', 'release');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      '---\nname: release\ndescription: Cut a release\n---\nRelease $0.\n',
    );
    await createTrustStore(env.sb.home).trust(env.sb.ws);
    const llm = createScriptedLlm([{ text: 'released' }]);
    const wb = await scripted.open(llm);
    await (
      await wb.chat.send({ text: '/release v2', approvalMode: 'auto' })
    ).finished;
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toMatchObject({
      command_name: 'release',
      command_args: 'v2',
      command_source: 'project',
      prompt: '/release v2',
    });
    expect(JSON.stringify(llm.calls[0]!.request.messages)).toContain('Release v2.');
  });
});
