/**
 * Claude Code settings hooks that match one event run at the same time, as Claude Code runs them
 * (docs/hooks.md#claude-code-settings-hooks), through a whole run; a deny among them still wins.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  sb.cleanup();
});

// Writes "<name> start <ns>" and "<name> end <ns>" around a one-second sleep, then answers `answer`.
const sleeper = (name: string, answer = '') =>
  `echo "${name} start $(date +%s%N)" >> "$CLAUDE_PROJECT_DIR/times.log"; sleep 1; echo "${name} end $(date +%s%N)" >> "$CLAUDE_PROJECT_DIR/times.log"; ${answer}`;

function settings(hooks: object): void {
  writeFileSync(join(sb.home, 'settings.json'), JSON.stringify({ hooks }));
}

describe('Claude settings hooks of one event', () => {
  it('two sleeping hooks overlap in time, and one denying blocks the call', async () => {
    mkdirSync(sb.ws, { recursive: true });
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'`;
    settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: sleeper('a') }] },
        { matcher: '*', hooks: [{ type: 'command', command: sleeper('b', deny) }] },
      ],
    });
    const llm = createScriptedLlm([
      { toolCalls: [{ name: 'execute', args: { command: 'echo hi' } }] },
      { text: 'ok' },
    ]);
    wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
    await (
      await wb.chat.send({ text: 'go', approvalMode: 'auto' })
    ).finished;
    const times = new Map(
      readFileSync(join(sb.ws, 'times.log'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' '))
        .map(([name, what, ns]) => [`${name} ${what}`, BigInt(ns!)] as const),
    );
    // Each started before the other ended: they ran at the same time.
    expect(times.get('a start')! < times.get('b end')!).toBe(true);
    expect(times.get('b start')! < times.get('a end')!).toBe(true);
    const tool = llm.calls[1]!.request.messages.find((m) => m.role === 'tool');
    expect(tool?.content).toBe('Error: blocked by hook echo: no');
  });
});
