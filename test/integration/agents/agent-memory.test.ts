/**
 * Claude Code's agent memory (`memory: user | project | local`, docs/agents.md#agent-memory): the
 * agent starts each run with its MEMORY.md in its system prompt and writes its notes there with its
 * file tools, whatever its `tools` list; a project's memory that leads out of the workspace is not
 * read, and the chat says so.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import type { StreamEvent } from '../../../src/shared/types/index.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { createScriptedLlm, type ScriptedTurn } from '../../helpers/scripted-llm.ts';
import { useClaudeSandbox } from '../../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

function agent(name: string, memory: string): void {
  const dir = join(env.claudeDir, 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}.md`),
    `---\nname: ${name}\ndescription: Keeps notes\ntools: Grep\nmemory: ${memory}\n---\nYou review code.\n`,
  );
}

const memoryOf = (system: readonly string[]) => system.find((s) => s.startsWith('## Your memory'));

describe("an agent's memory", () => {
  it('is shown at each run start, and the agent keeps notes in it with its file tools', async () => {
    agent('notes', 'user');
    const dir = join(env.claudeDir, 'agent-memory', 'notes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), '# Notes\n- The project uses pnpm.\n');
    const remember: ScriptedTurn = {
      toolCalls: [
        {
          name: 'write_file',
          args: {
            path: join(dir, 'MEMORY.md'),
            content: '# Notes\n- The project uses pnpm.\n- Tests live in spec/.\n',
          },
        },
      ],
    };
    const llm = createScriptedLlm([remember, { text: 'noted' }, { text: 'ok' }]);
    wb = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm,
      interactive: false,
    });
    const first = await wb.chat.send({ text: 'review', agent: 'notes', approvalMode: 'auto' });
    await first.finished;
    await (
      await wb.chat.send({ text: 'again', threadId: first.threadId, approvalMode: 'auto' })
    ).finished;
    llm.assertComplete();

    const [start, , next] = llm.calls.map((c) => c.request);
    expect(memoryOf(start!.system)).toContain(`You keep notes between your runs in ${dir}.`);
    expect(memoryOf(start!.system)).toContain('- The project uses pnpm.');
    expect(start!.tools.map((t) => t.name).sort()).toEqual([
      'edit_file',
      'grep',
      'read_file',
      'write_file',
    ]);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toContain('Tests live in spec/.');
    expect(memoryOf(next!.system)).toContain('- Tests live in spec/.');
  });

  it('of a project is not read when it leads out of the workspace, and the chat says so', async () => {
    agent('scout', 'project');
    writeFileSync(join(env.sb.home, '..', 'secret.txt'), 'canary-agent-memory');
    const dir = join(env.sb.ws, '.claude', 'agent-memory', 'scout');
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(env.sb.home, '..', 'secret.txt'), join(dir, 'MEMORY.md'));
    await createTrustStore(env.sb.home).trust(env.sb.ws);
    const llm = createScriptedLlm([{ text: 'ok' }]);
    wb = await createWorkbench({
      home: env.sb.home,
      workspace: env.sb.ws,
      llm,
      interactive: false,
    });
    const events: StreamEvent[] = [];
    wb.subscribe((e) => events.push(e));
    await (
      await wb.chat.send({ text: 'look', agent: 'scout', approvalMode: 'auto' })
    ).finished;

    expect(llm.calls[0]!.request.system.join('\n')).not.toContain('canary-agent-memory');
    const problems = events.flatMap((e) =>
      e.event === 'error' && e.data.code === 'diagnostic' ? [e.data.message] : [],
    );
    expect(problems).toContain(
      `agent scout: its memory (project) at ${dir} has a MEMORY.md that cannot be read (ELOOP); not read`,
    );
  });
});
