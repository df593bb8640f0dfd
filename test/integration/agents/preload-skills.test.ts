/**
 * Claude Code's agent `skills: [name]`: a subagent starts with each named skill's whole SKILL.md in
 * its system prompt (docs/agents.md); the agent that started it does not, and a name no skill has
 * is said in the chat.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';
import type { StreamEvent } from '../../../src/shared/types/index.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';
import type { ScriptTurn } from '../../helpers/fake-openai-script.ts';
import { useClaudeSandbox } from '../../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const RULES = 'Every endpoint returns {data, error}; never throw past the handler.';

describe("an agent's skills", () => {
  it('join its system prompt whole when it runs as a subagent; a name no skill has is said in the chat', async () => {
    const skillDir = join(env.claudeDir, 'skills', 'api-conventions');
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      join(skillDir, 'SKILL.md'),
      `---\nname: api-conventions\ndescription: How our API handlers are written\n---\n# API conventions\n${RULES}\n`,
    );
    const agents = join(env.sb.ws, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(
      join(agents, 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews API handlers\nskills: [api-conventions, nope]\n---\nAGENT:reviewer\n',
    );
    const isReviewer = (req: ModelRequest) => req.system[0]?.startsWith('AGENT:reviewer') ?? false;
    const requests: ModelRequest[] = [];
    const route = (req: ModelRequest): ScriptTurn => {
      requests.push(req);
      if (isReviewer(req)) return { text: 'reviewed' };
      return req.messages.at(-1)?.role === 'tool'
        ? { text: 'done' }
        : {
            toolCalls: [
              { name: 'task', args: { subagent_type: 'reviewer', description: 'review' } },
            ],
          };
    };
    await createTrustStore(env.sb.home).trust(env.sb.ws);
    const llm = createScriptedLlm(Array.from({ length: 6 }, () => route));
    wb = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm,
      interactive: false,
    });
    const events: StreamEvent[] = [];
    wb.subscribe((e) => events.push(e));
    await (
      await wb.chat.send({ text: 'review the handlers', approvalMode: 'auto' })
    ).finished;

    const reviewer = requests.find(isReviewer)!;
    const main = requests.find((r) => !isReviewer(r))!;
    const loaded = reviewer.system.find((s) => s.startsWith('## Skills loaded for this agent'));
    expect(loaded).toContain(`### api-conventions (files it mentions are relative to ${skillDir})`);
    expect(loaded).toContain(RULES);
    expect(main.system.join('\n')).not.toContain(RULES);
    const problems = events.flatMap((e) =>
      e.event === 'error' && e.data.code === 'diagnostic' ? [e.data.message] : [],
    );
    expect(problems).toContain(
      'agent reviewer: skill "nope" is not preloaded: no skill has that name',
    );
  });
});
