/**
 * Claude Code's StopFailure: a run a model error ended runs the handlers whose matcher names its
 * `error_type`, told the error; a run that ends otherwise runs none.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LlmError } from '../../src/main/llm/types.ts';
import type { ScriptedTurn } from '../helpers/scripted-llm.ts';
import { useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

/** StopFailure handlers keeping their input, one file per matcher. */
function handlers(...matchers: string[]): (matcher: string) => string {
  const file = (m: string) => join(env.sb.home, '..', `${m}.json`);
  writeFileSync(
    join(env.claudeDir, 'settings.json'),
    JSON.stringify({
      hooks: {
        StopFailure: matchers.map((m) => ({
          matcher: m,
          hooks: [{ command: `cat > '${file(m)}'` }],
        })),
      },
    }),
  );
  return file;
}

async function runTo(end: ScriptedTurn) {
  await scripted.run([end]);
}

describe('StopFailure', () => {
  it('tells the handlers of the error type what ended the run', async () => {
    const file = handlers('rate_limit', 'authentication_failed');
    await runTo({
      throw: new LlmError('rate_limited', 'the model server is rate limiting (HTTP 429)', 429),
    });
    expect(JSON.parse(readFileSync(file('rate_limit'), 'utf8'))).toMatchObject({
      hook_event_name: 'StopFailure',
      error_type: 'rate_limit',
      error: '429',
      error_message: 'the model server is rate limiting (HTTP 429)',
      cwd: env.sb.ws,
    });
    expect(existsSync(file('authentication_failed'))).toBe(false);
  });

  it('calls a stream that broke off a server error, and runs nothing for a run that ended well', async () => {
    const file = handlers('server_error');
    await runTo({ text: 'half an ans', interrupted: 'connection reset' });
    expect(JSON.parse(readFileSync(file('server_error'), 'utf8'))).toMatchObject({
      error_type: 'server_error',
      error: 'stream_broken',
      error_message: "the model's answer broke off: connection reset",
    });
    const again = handlers('*');
    await runTo({ text: 'all good' });
    expect(existsSync(again('*'))).toBe(false);
  });
});
