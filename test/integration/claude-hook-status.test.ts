/**
 * What the user sees while a hook runs: a Claude handler's `statusMessage` at once, any hook that
 * takes over a second as "running", nothing for a quick one — each cleared by its `on_hook_end`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { runCommand, useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

const hookEvents = (events: StreamEvent[]) =>
  events.flatMap((e) =>
    e.event === 'on_hook_start' || e.event === 'on_hook_end' ? [{ kind: e.event, ...e.data }] : [],
  );

describe('a running hook', () => {
  it('is shown with its status message at once, a slow one after a second, a quick one not at all', async () => {
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { command: 'sleep 0.2', statusMessage: 'Checking the command…' },
                { command: 'sleep 1.4' },
                { command: 'true' },
              ],
            },
          ],
        },
      }),
    );
    const { events } = await scripted.run([runCommand('echo hi'), { text: 'done' }]);
    const seen = hookEvents(events);
    const starts = seen.filter((e) => e.kind === 'on_hook_start');
    expect(starts).toEqual([
      {
        kind: 'on_hook_start',
        hook: 'sleep',
        event: 'PreToolUse',
        call: expect.any(String),
        message: 'Checking the command…',
      },
      { kind: 'on_hook_start', hook: 'sleep', event: 'PreToolUse', call: expect.any(String) },
    ]);
    // Each start is ended by the on_hook_end of the same call; the quick hook has none.
    for (const start of starts) {
      expect(
        seen.filter((e) => e.kind === 'on_hook_end' && 'call' in e && e.call === start.call),
      ).toHaveLength(1);
    }
    expect(seen.filter((e) => e.kind === 'on_hook_end')).toHaveLength(3);
  });
});
