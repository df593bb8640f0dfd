/**
 * Persistent executable hooks (docs/hooks.md#persistent-hooks) through whole runs: one `serve` process
 * answers every call, is started again after it dies or misses a deadline, can deny, and is gone once
 * the workbench closed.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import { detectSandbox } from '../../../src/main/tools/sandbox/index.ts';
import {
  callHookServer,
  endHookServers,
  hookServerPids,
} from '../../../src/main/user-hooks/hook-server.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import {
  createScriptedLlm,
  type ScriptedLlm,
  type ScriptedTurn,
} from '../../helpers/scripted-llm.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';

// Logs its pid per call to <cwd>/pids.log; `deny` blocks, `die` exits unanswered, `hang` never answers.
const SERVER = (typeAnswer: string) => `#!/usr/bin/env node
const fs = require('node:fs');
const mode = process.argv[2];
if (mode === 'hook') { console.log(${JSON.stringify(typeAnswer)}); process.exit(0); }
if (mode !== 'serve') process.exit(1);
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, event, payload } = JSON.parse(line);
  fs.appendFileSync(payload.cwd + '/pids.log', process.pid + ' ' + event + '\\n');
  const command = payload.tool_input.command || '';
  if (command.includes('die')) process.exit(3);
  if (command.includes('hang')) return;
  const result = command.includes('deny') ? { blocked: true, reason: 'denied by pid ' + process.pid } : null;
  process.stdout.write(JSON.stringify({ id, result }) + '\\n');
});
`;

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

function install(typeAnswer = '{"event":"before_tool_call","persistent":true}'): void {
  const path = join(sb.wsHooks, 'server');
  writeFileSync(path, SERVER(typeAnswer));
  chmodSync(path, 0o755);
}

async function start(turns: ScriptedTurn[]): Promise<{ wb: Workbench; llm: ScriptedLlm }> {
  await createTrustStore(sb.home).trust(sb.ws);
  const llm = createScriptedLlm(turns);
  wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
  return { wb, llm };
}

const execute = (command: string): ScriptedTurn => ({
  toolCalls: [{ name: 'execute', args: { command } }],
});
const send = async (w: Workbench, text: string) =>
  (await w.chat.send({ text, approvalMode: 'auto' })).finished;
const pids = () =>
  readFileSync(join(sb.ws, 'pids.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => Number(l.split(' ')[0]));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const toolMessages = (llm: ScriptedLlm, call: number) =>
  llm.calls[call].request.messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('persistent executable hooks', () => {
  it('one process serves every call of two runs, can deny, and ends with the workbench', async () => {
    install();
    const { wb: w, llm } = await start([
      execute('echo one'),
      execute('echo two'),
      { text: 'a' },
      execute('echo deny'),
      { text: 'b' },
    ]);
    await send(w, 'first');
    await send(w, 'second');
    const seen = pids();
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect(toolMessages(llm, 4).at(-1)).toBe(
      `Error: blocked by hook server: denied by pid ${seen[0]}`,
    );
    expect(alive(seen[0]!)).toBe(true);
    wb = undefined;
    await w.close();
    expect(alive(seen[0]!)).toBe(false);
  });

  it('a server that dies is started again; the call it dropped fails open', async () => {
    install();
    const { wb, llm } = await start([execute('echo die'), execute('echo after'), { text: 'ok' }]);
    await send(wb, 'go');
    const [first, second] = pids();
    expect(first).not.toBe(second);
    expect(toolMessages(llm, 1)[0]).toContain('die');
    expect(toolMessages(llm, 2)[1]).toContain('after');
  });

  it('a server that misses the deadline is killed, and the next call starts a new one', async () => {
    install();
    const { wb } = await start([execute('echo hang'), execute('echo next'), { text: 'ok' }]);
    await wb.settings.update({
      hook_overrides: { 'executable:workspace:server': { timeout_ms: 500 } },
    });
    await send(wb, 'go');
    const [hung, next] = pids();
    expect(next).not.toBe(hung);
    expect(alive(hung!)).toBe(false);
  });

  it('a settings override makes a hook that answers its plain event persistent', async () => {
    install('before_tool_call');
    const { wb } = await start([execute('echo one'), execute('echo two'), { text: 'ok' }]);
    await wb.settings.update({
      hook_overrides: { 'executable:workspace:server': { persistent: true } },
    });
    await send(wb, 'go');
    const seen = pids();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    const { hooks } = await wb.hooks.list({ workspace: sb.ws });
    expect(hooks.find((h) => h.id === 'executable:workspace:server')).toMatchObject({
      persistent: true,
    });
  });
});

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';

describe.skipIf(!bwrapUsable)('a sandboxed persistent hook', () => {
  it('serves every call from one process inside the sandbox (its own PID namespace)', async () => {
    const path = join(sb.wsHooks, 'boxed');
    writeFileSync(
      path,
      `#!/usr/bin/env python3
import json, os, sys
if sys.argv[1] == "serve":
    for line in sys.stdin:
        call = json.loads(line)
        print(json.dumps({"id": call["id"], "result": {"blocked": True, "reason": str(os.getpid())}}), flush=True)
`,
    );
    chmodSync(path, 0o755);
    const spec = {
      command: path,
      cwd: sb.ws,
      env: { PATH: process.env.PATH },
      stdin: '{}',
      timeoutMs: 10_000,
      sandbox: {
        settings: DEFAULT_SETTINGS.sandbox,
        workbenchHome: sb.home,
        workspace: sb.ws,
        scripts: [path],
      },
    };
    const pidInside = async () =>
      Number(JSON.parse((await callHookServer(spec, 'before_tool_call')).stdout).reason);
    const first = await pidInside();
    expect(await pidInside()).toBe(first);
    // Pids of a fresh PID namespace start at 1: the server runs inside the sandbox's.
    expect(first).toBeLessThan(10);
    expect(hookServerPids()).toHaveLength(1);
    await endHookServers();
    expect(hookServerPids()).toEqual([]);
  });
});
