/**
 * Persistent executable hooks (docs/hooks.md#persistent-hooks) through whole runs: one `serve` process
 * answers every call, is started again after it dies or misses a deadline, can deny, and is gone once
 * the workbench closed.
 */
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import { detectSandbox } from '../../../src/main/tools/sandbox/index.ts';
import {
  callHookServer,
  endHookServers,
  hookServerPids,
  sweepHookServers,
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

  it('a server ends when its hook is switched off, and when its workspace loses trust', async () => {
    install();
    const { wb } = await start([
      execute('echo one'),
      { text: 'a' },
      execute('echo two'),
      { text: 'b' },
    ]);
    const id = 'executable:workspace:server';
    await send(wb, 'first');
    const first = pids()[0]!;
    expect(alive(first)).toBe(true);
    await wb.hooks.setEnabled({ workspace: sb.ws, id, enabled: false });
    await expect.poll(() => alive(first), { timeout: 5000 }).toBe(false);

    await wb.hooks.setEnabled({ workspace: sb.ws, id, enabled: true });
    await send(wb, 'second');
    const second = pids()[1]!;
    expect(second).not.toBe(first);
    expect(alive(second)).toBe(true);
    await wb.trust.set({ workspace: sb.ws, trusted: false });
    await expect.poll(() => alive(second), { timeout: 5000 }).toBe(false);
    expect(hookServerPids()).toEqual([]);
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

describe('a persistent hook that misbehaves between or instead of answers', () => {
  afterEach(() => endHookServers());
  // A server script in Node; `body` runs once per call line with `id` and `pid` in scope.
  const serverFile = (name: string, body: string) => {
    const path = join(sb.ws, name);
    writeFileSync(
      path,
      `#!/usr/bin/env node
const fs = require('node:fs');
const pid = process.pid;
fs.appendFileSync(${JSON.stringify(join(sb.ws, 'pids.log'))}, pid + ' serve\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id } = JSON.parse(line);
  ${body}
});
`,
    );
    chmodSync(path, 0o755);
    return {
      command: path,
      cwd: sb.ws,
      env: { PATH: process.env.PATH },
      stdin: '{}',
      timeoutMs: 20_000,
    };
  };
  const gone = (pid: number) => expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);

  it('one that floods stdout with lines answering no call is ended at 1 MB, and the call says why', async () => {
    const spec = serverFile(
      'flood-out',
      `const noise = 'not an answer\\n'.repeat(4096);
  (function flood() { process.stdout.write(noise, flood); })();`,
    );
    const res = await callHookServer(spec, 'before_tool_call');
    expect(res.error).toMatch(/wrote over 1 MB to stdout that answered no call/);
    expect(res.timedOut).toBe(false);
    await gone(pids()[0]!);
    expect(hookServerPids()).toEqual([]);
  });

  it('one that floods stderr is ended at 1 MB, keeping the first 256 KB of what it wrote', async () => {
    const spec = serverFile(
      'flood-err',
      `const noise = 'a log line\\n'.repeat(4096);
  (function flood() { process.stderr.write(noise, flood); })();`,
    );
    const res = await callHookServer(spec, 'before_tool_call');
    expect(res.error).toMatch(/wrote over 1 MB to stderr since its last answer/);
    expect(res.stderr.startsWith('a log line\n')).toBe(true);
    expect(res.stderr.length).toBeLessThanOrEqual(256 * 1024);
    await gone(pids()[0]!);
  });

  it('an idle one whose hook was renamed to .disable in a shell is ended by the next sweep', async () => {
    const spec = serverFile(
      'renamed',
      `process.stdout.write(JSON.stringify({ id, result: null }) + '\\n');`,
    );
    expect((await callHookServer(spec, 'before_tool_call')).exitCode).toBe(0);
    const pid = pids()[0]!;
    sweepHookServers();
    expect(hookServerPids()).toEqual([pid]);
    renameSync(spec.command, `${spec.command}.disable`);
    sweepHookServers();
    expect(hookServerPids()).toEqual([]);
    await gone(pid);
  });

  it('one that exits between calls is started again, and the next answer tells why it ended', async () => {
    // Only the first server exits, 100 ms after its answer.
    const spec = serverFile(
      'exits-after',
      `process.stdout.write(JSON.stringify({ id, result: null }) + '\\n');
  if (fs.readFileSync('pids.log', 'utf8').trim().split('\\n').length === 1)
    setTimeout(() => { process.stderr.write('lost my database connection\\n'); process.exit(4); }, 100);`,
    );
    const first = await callHookServer(spec, 'before_tool_call');
    expect(first).toMatchObject({ exitCode: 0, stderr: '' });
    await gone(pids()[0]!);
    const second = await callHookServer(spec, 'before_tool_call');
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toBe(
      "[the hook's previous server: hook server exited (4): lost my database connection]\n",
    );
    const third = await callHookServer(spec, 'before_tool_call');
    expect(third).toMatchObject({ exitCode: 0, stderr: '' });
    expect(pids()).toHaveLength(2);
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
