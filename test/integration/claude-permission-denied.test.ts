/**
 * Claude Code's PermissionDenied hook in a whole run: it hears of a call the approval policy refused
 * by itself (it always needs a person, and nobody can approve it here, as auto mode's classifier
 * refuses in Claude Code), its `retry` reaches the model, and it is not told of any other refusal.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import type { ApprovalMode, StreamEvent } from '../../src/shared/types/index.ts';
import { createScriptedLlm, type ScriptedTurn } from '../helpers/scripted-llm.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const heard = () => join(env.sb.home, '..', 'denied.jsonl');
/** Every input the PermissionDenied handlers got, one JSON line each. */
const inputs = (): Array<Record<string, unknown>> =>
  existsSync(heard())
    ? readFileSync(heard(), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

/** A handler keeping its stdin as one line of denied.jsonl, then printing `answer`. */
function keeper(answer?: object) {
  const print = answer ? `; printf '%s' '${JSON.stringify(answer)}'` : '';
  return { command: `{ cat; echo; } >> '${heard()}'${print}` };
}
const retry = (value: unknown) => ({
  hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: value },
});

function writeSettings(settings: object): void {
  writeFileSync(join(env.claudeDir, 'settings.json'), JSON.stringify(settings));
}

/** Runs the script; returns what the model was told for each tool call, with their ids, and the events. */
async function runScript(
  script: ScriptedTurn[],
  o: { interactive: boolean; mode: ApprovalMode; answer?: 'deny' },
) {
  const llm = createScriptedLlm([...script, { text: 'done' }]);
  wb = await createWorkbench({
    home: env.sb.home,
    workspace: env.sb.ws,
    llm,
    interactive: o.interactive,
  });
  const events: StreamEvent[] = [];
  const w = wb;
  w.subscribe((e) => {
    events.push(e);
    if (e.event === 'on_approval_request' && o.answer)
      queueMicrotask(() => w.chat.approve({ approvalId: e.data.approval_id, decision: o.answer! }));
  });
  const handle = await w.chat.send({ text: 'go', approvalMode: o.mode });
  await handle.finished;
  const results = llm.calls.at(-1)!.request.messages.filter((m) => m.role === 'tool');
  return {
    told: results.map((m) => String(m.content)),
    ids: results.map((m) => m.tool_call_id),
    events,
  };
}

const hookFile = '.git/hooks/pre-commit';
const writeHook = { toolCalls: [{ name: 'write_file', args: { path: hookFile, content: 'x' } }] };
const run = (command: string) => ({ toolCalls: [{ name: 'execute', args: { command } }] });

describe('Claude Code PermissionDenied hooks', () => {
  it('hear of a call refused because nobody could approve it; retry: true tells the model it may retry', async () => {
    writeSettings({
      hooks: { PermissionDenied: [{ matcher: 'Write', hooks: [keeper(retry(true))] }] },
    });
    const { told, ids } = await runScript([writeHook], { interactive: false, mode: 'auto' });
    // The refusal stands: nothing was written.
    expect(existsSync(join(env.sb.ws, hookFile))).toBe(false);
    expect(told[0]).toMatch(
      /^Error: not run: .*nobody can approve it here; hook \S+ says you may retry it$/,
    );
    const [input] = inputs();
    expect(input).toMatchObject({
      hook_event_name: 'PermissionDenied',
      permission_mode: 'bypassPermissions',
      tool_name: 'Write',
      tool_input: { file_path: join(env.sb.ws, hookFile), content: 'x' },
      tool_use_id: ids[0],
    });
    // The reason they hear is the refusal the model reads.
    expect(told[0]!.startsWith(`Error: ${String(input!.reason)}; hook `)).toBe(true);
  });

  it('without retry, or with a retry that is not a boolean, the model gets the refusal alone', async () => {
    writeSettings({
      hooks: {
        PermissionDenied: [
          { matcher: 'Bash', hooks: [keeper()] },
          {
            matcher: 'Bash',
            hooks: [{ command: `cat >/dev/null; printf '%s' '${JSON.stringify(retry('yes'))}'` }],
          },
        ],
      },
    });
    // Refused sandboxed or not: it cannot be checked.
    const { told, events } = await runScript([run("echo 'unclosed")], {
      interactive: false,
      mode: 'auto',
    });
    expect(told[0]).toMatch(/^Error: not run: this command could not be parsed as shell/);
    expect(told[0]).not.toMatch(/retry/);
    expect(inputs()).toHaveLength(1);
    const ends = events.flatMap((e) => (e.event === 'on_hook_end' ? [e.data] : []));
    expect(ends.some((d) => /"retry" must be a boolean/.test(String(d.reason)))).toBe(true);
  });

  it('are not told of a person’s deny, a deny rule, an ask rule or a PreToolUse block', async () => {
    writeSettings({
      permissions: { deny: ['Bash(echo ruled *)'], ask: ['Bash(echo asked *)'] },
      hooks: {
        PermissionDenied: [{ hooks: [keeper(retry(true))] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ if: 'Bash(echo blocked *)', command: 'cat >/dev/null; echo no >&2; exit 2' }],
          },
        ],
      },
    });
    const nobody = await runScript(
      [run('echo ruled out'), run('echo asked first'), run('echo blocked here')],
      { interactive: false, mode: 'auto' },
    );
    expect(nobody.told[0]).toMatch(/denied by your permission rule/);
    expect(nobody.told[1]).toMatch(/^Error: not run: .*nobody can approve it here$/);
    expect(nobody.told[2]).toMatch(/^Error: blocked by hook/);
    await wb!.close();
    wb = undefined;
    const person = await runScript([writeHook], {
      interactive: true,
      mode: 'auto',
      answer: 'deny',
    });
    expect(person.told[0]).toBe('Error: the user denied write_file');
    expect(inputs()).toEqual([]);
  });
});
