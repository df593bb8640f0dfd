/**
 * Claude Code's FileChanged: while a run goes on, the files its matchers name (and the paths hooks
 * ask for with `watchPaths`) are watched; a change is told to the handlers matching the file's name,
 * and the variables they export through CLAUDE_ENV_FILE reach the run's later commands.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { createScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm.ts';
import { runCommand, toolEnds, useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

const logged = (file: string) =>
  readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('FileChanged', () => {
  it('tells the watched files the agent writes, and what a hook exports reaches the next command', async () => {
    const envLog = join(env.sb.home, '..', 'envrc.log');
    const allLog = join(env.sb.home, '..', 'all.log');
    const toml = join(env.sb.ws, 'config.toml');
    writeFileSync(toml, 'a = 1\n');
    const reload = [
      `cat >> '${envLog}'; echo >> '${envLog}'`,
      `echo "export DEPLOY_TARGET=$(cut -d= -f2 .envrc)" >> "$CLAUDE_ENV_FILE"`,
      `printf '%s' '{"hookSpecificOutput": {"hookEventName": "FileChanged", "watchPaths": ["${toml}"]}}'`,
    ].join('; ');
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({
        hooks: {
          FileChanged: [
            { matcher: '.envrc|.env', hooks: [{ command: reload }] },
            { matcher: '*', hooks: [{ command: `cat >> '${allLog}'; echo >> '${allLog}'` }] },
          ],
        },
      }),
    );
    const llm = createScriptedLlm([
      runCommand('echo TARGET=staging > .envrc'),
      runCommand('echo "target: $DEPLOY_TARGET"; echo a = 2 > config.toml'),
      { text: 'done' },
    ]);
    // The model's next answer waits for the hooks a write set off, as a person's next step would.
    const hookEnds = counter();
    const wb = await scripted.open(gated(llm, [hookEnds.reached(2), hookEnds.reached(3)]));
    const events: StreamEvent[] = [];
    wb.subscribe((e) => {
      events.push(e);
      if (e.event === 'on_hook_end' && e.data.event === 'FileChanged') hookEnds.add();
    });
    await (await wb.chat.send({ text: 'go', approvalMode: 'auto' })).finished;

    expect(logged(envLog)).toEqual([
      expect.objectContaining({ hook_event_name: 'FileChanged', file_path: join(env.sb.ws, '.envrc'), event: 'add' }),
    ]);
    // `*` watches nothing by name but hears every change, the path the first hook asked for included.
    expect(logged(allLog).map((i) => [i.file_path, i.event])).toEqual([
      [join(env.sb.ws, '.envrc'), 'add'],
      [toml, 'change'],
    ]);
    expect(toolEnds(events)[1]?.output).toContain('target: staging');
  });
});

/** Counts events; `reached(n)` resolves a moment after the n-th (so what followed it in the run is done). */
function counter() {
  let n = 0;
  const waiting: Array<{ at: number; resolve: () => void }> = [];
  return {
    add() {
      n++;
      for (const w of waiting) if (w.at === n) setTimeout(w.resolve, 50);
    },
    reached: (at: number) => new Promise<void>((resolve) => waiting.push({ at, resolve })),
  };
}

/** `llm`, whose answers from the second on each wait for the next of `ready`. */
function gated(llm: ScriptedLlm, ready: Promise<void>[]): ScriptedLlm {
  return {
    ...llm,
    calls: llm.calls,
    async chat(request, opts) {
      const wait = ready[llm.calls.length - 1] as Promise<void> | undefined;
      if (wait) await wait;
      return llm.chat(request, opts);
    },
  };
}
