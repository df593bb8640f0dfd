/**
 * Subagents through a whole run (createWorkbench + the scripted model, real files, real commands):
 * two in parallel nested in the trace and stored as child threads, the depth limit, a cancel inside
 * a subagent, and the SubagentStop hook.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';
import type { StreamEvent } from '../../../src/shared/types/index.ts';
import { createTrustStore } from '../../../src/main/user-hooks/index.ts';
import { createScriptedLlm, type ScriptedLlm } from '../../helpers/scripted-llm.ts';
import type { ScriptTurn } from '../../helpers/fake-openai-script.ts';
import { sandbox, type Sandbox } from '../../unit/user-hooks/helpers.ts';

let sb: Sandbox;
let wb: Workbench | undefined;
const realHome = process.env.HOME;
const realConfigDir = process.env.CLAUDE_CONFIG_DIR;
beforeEach(() => {
  sb = sandbox();
  process.env.HOME = sb.home;
  process.env.CLAUDE_CONFIG_DIR = join(sb.home, '.claude');
  // Commands run without the sandbox so the test can see their processes.
  writeFileSync(
    join(sb.home, 'settings.json'),
    JSON.stringify({ sandbox: { mode: 'off', network: false } }),
  );
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  process.env.HOME = realHome;
  if (realConfigDir === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = realConfigDir;
  sb.cleanup();
});

function profile(name: string, front: string, body: string): void {
  const dir = join(sb.ws, '.workbench', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\n${front}\n---\n${body}\n`);
}

/** Which profile a request comes from: each test profile's prompt starts with its marker. */
const agentOf = (req: ModelRequest) => /^AGENT:(\w+)/.exec(req.system[0] ?? '')?.[1] ?? 'main';
const lastIsTool = (req: ModelRequest) => req.messages.at(-1)?.role === 'tool';
const offers = (req: ModelRequest, tool: string) => req.tools.some((t) => t.name === tool);

/** The main agent's turns: start subagent `name` once, then finish. */
const startsOnce = (req: ModelRequest, name: string): ScriptTurn =>
  lastIsTool(req)
    ? { text: 'ok' }
    : { toolCalls: [{ name: 'task', args: { subagent_type: name, description: name } }] };

/** A model that answers every call by `route`; enough turns for any test here. */
function routed(route: (req: ModelRequest) => ScriptTurn): ScriptedLlm {
  return createScriptedLlm(Array.from({ length: 40 }, () => route));
}

async function open(llm: ScriptedLlm): Promise<{ events: StreamEvent[] }> {
  await createTrustStore(sb.home).trust(sb.ws);
  wb = await createWorkbench({ home: sb.home, workspace: sb.ws, llm, interactive: false });
  const events: StreamEvent[] = [];
  wb.subscribe((e) => events.push(e));
  return { events };
}

describe('the task tool', () => {
  it('runs two subagents in parallel on child threads, nested under their task spans in one trace', async () => {
    profile(
      'researcher',
      'description: Finds facts\ntools: Bash, Read',
      'AGENT:researcher You research.',
    );
    profile('writer', 'description: Writes prose', 'AGENT:writer You write.');
    const llm = routed((req) => {
      const agent = agentOf(req);
      if (agent === 'main') {
        if (lastIsTool(req))
          return {
            text: `Both done: ${req.messages
              .filter((m) => m.role === 'tool')
              .map((m) => m.content)
              .join(' | ')}`,
          };
        return {
          toolCalls: [
            {
              id: 'call_r',
              name: 'task',
              args: { subagent_type: 'researcher', description: 'find the facts' },
            },
            {
              id: 'call_w',
              name: 'task',
              args: { subagent_type: 'writer', description: 'write the intro' },
            },
          ],
        };
      }
      // Each subagent runs a command that takes a while, so the two must overlap to finish in time.
      if (!lastIsTool(req))
        return { toolCalls: [{ name: 'execute', args: { command: 'sleep 0.4; echo slept' } }] };
      return { text: agent === 'researcher' ? 'facts: water is wet' : 'intro: hello reader' };
    });
    const { events } = await open(llm);
    const handle = await wb!.chat.send({ text: 'research and write', approvalMode: 'auto' });
    const result = await handle.finished;
    expect(result.stop_reason).toBe('completed');

    const parent = wb!.threads.get({ threadId: handle.threadId })!;
    expect(parent.messages.at(-1)!.content).toBe(
      'Both done: facts: water is wet | intro: hello reader',
    );
    const children = wb!.threads.children({ threadId: handle.threadId });
    expect(children.map((c) => [c.agent, c.parent_tool_call_id]).sort()).toEqual([
      ['researcher', 'call_r'],
      ['writer', 'call_w'],
    ]);
    // Child threads are stored, hidden from the default list, and hold their own conversation.
    expect(wb!.threads.list().map((t) => t.thread_id)).toEqual([handle.threadId]);
    expect(wb!.threads.list({ includeChildren: true })).toHaveLength(3);
    const research = wb!.threads.get({
      threadId: children.find((c) => c.agent === 'researcher')!.thread_id,
    })!;
    expect(research.messages[0]).toMatchObject({ role: 'user', content: 'find the facts' });
    expect(research.messages.at(-1)!.content).toBe('facts: water is wet');

    // The researcher's allowlist (Claude names) is applied; the writer gets every tool.
    const firstOf = (agent: string) => llm.calls.find((c) => agentOf(c.request) === agent)!.request;
    expect(
      firstOf('researcher')
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(['execute', 'read_file']);
    expect(offers(firstOf('writer'), 'write_file')).toBe(true);

    const spans = wb!.trace.list({ threadId: handle.threadId });
    const taskSpans = spans.filter((s) => s.name === 'execute_tool task');
    expect(taskSpans).toHaveLength(2);
    for (const agent of ['researcher', 'writer']) {
      const root = spans.find((s) => s.name === `invoke_agent ${agent}`)!;
      expect(root).toBeDefined();
      const task = taskSpans.find((s) => s.span_id === root.parent_span_id)!;
      expect(task.attributes.tool_call_id).toBe(agent === 'researcher' ? 'call_r' : 'call_w');
      expect(root.trace_id).toBe(task.trace_id);
    }
    const [r, w] = ['researcher', 'writer'].map((a) =>
      spans.find((s) => s.name === `invoke_agent ${a}`)!,
    );
    expect(r.start_ms < w.end_ms! && w.start_ms < r.end_ms!).toBe(true);

    // Their events say where they belong.
    const childStart = events.filter((e) => e.event === 'on_run_start' && e.depth === 1);
    expect(
      childStart.map((e) => [e.agent, e.parent_tool_call_id, e.parent_thread_id]).sort(),
    ).toEqual([
      ['researcher', 'call_r', handle.threadId],
      ['writer', 'call_w', handle.threadId],
    ]);
  });

  it('is not offered past the depth limit (default 2, agent.yaml max_subagent_depth)', async () => {
    profile('a', 'description: first level', 'AGENT:a');
    profile('b', 'description: second level', 'AGENT:b');
    const route = (req: ModelRequest): ScriptTurn => {
      const agent = agentOf(req);
      if (lastIsTool(req)) return { text: `${agent} done` };
      if (agent === 'main')
        return { toolCalls: [{ name: 'task', args: { subagent_type: 'a', description: 'go' } }] };
      if (agent === 'a' && offers(req, 'task'))
        return {
          toolCalls: [{ name: 'task', args: { subagent_type: 'b', description: 'go deeper' } }],
        };
      return { text: `${agent} done` };
    };
    let llm = routed(route);
    await open(llm);
    let handle = await wb!.chat.send({ text: 'start' });
    expect((await handle.finished).stop_reason).toBe('completed');
    const offered = (l: ScriptedLlm, agent: string) =>
      offers(l.calls.find((c) => agentOf(c.request) === agent)!.request, 'task');
    expect([offered(llm, 'main'), offered(llm, 'a'), offered(llm, 'b')]).toEqual([
      true,
      true,
      false,
    ]);
    const a = wb!.threads.children({ threadId: handle.threadId })[0];
    expect(wb!.threads.children({ threadId: a.thread_id }).map((c) => c.agent)).toEqual(['b']);
    await wb!.close();

    writeFileSync(join(sb.ws, '.workbench', 'agent.yaml'), 'max_subagent_depth: 1\n');
    llm = routed(route);
    await open(llm);
    handle = await wb!.chat.send({ text: 'start' });
    expect((await handle.finished).stop_reason).toBe('completed');
    expect([offered(llm, 'main'), offered(llm, 'a')]).toEqual([true, false]);
  });

  it('cancels a subagent with its parent: its command is killed, both threads stay valid', async () => {
    profile('worker', 'description: works long', 'AGENT:worker');
    const pidFile = join(sb.ws, 'sleep.pid');
    const llm = routed((req) => {
      if (agentOf(req) === 'main')
        return {
          toolCalls: [
            { id: 'call_t', name: 'task', args: { subagent_type: 'worker', description: 'work' } },
          ],
        };
      return {
        toolCalls: [
          { name: 'execute', args: { command: `sleep 60 & echo $! > ${pidFile}; wait` } },
        ],
      };
    });
    const { events } = await open(llm);
    const handle = await wb!.chat.send({ text: 'start', approvalMode: 'auto' });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    expect(wb!.chat.cancel({ threadId: handle.threadId })).toBe(true);
    expect((await handle.finished).stop_reason).toBe('cancelled');
    await until(() => !alive(pid));
    const child = wb!.threads.children({ threadId: handle.threadId })[0];
    expect(
      events.some(
        (e) =>
          e.event === 'done' &&
          e.thread_id === child.thread_id &&
          e.data.stop_reason === 'cancelled',
      ),
    ).toBe(true);
    expect(wb!.chat.running()).toEqual([]);
    const childState = wb!.threads.get({ threadId: child.thread_id })!;
    expect(childState.messages.at(-1)).toMatchObject({ role: 'tool', status: 'cancelled' });
  });
});

describe('Claude Code SubagentStop', () => {
  it('fires at the subagent end with agent_type; a block keeps the subagent working', async () => {
    profile('researcher', 'description: Finds facts', 'AGENT:researcher');
    const log = join(sb.home, 'stop-inputs.jsonl');
    const hook = join(sb.home, 'stop.sh');
    writeFileSync(
      hook,
      `#!/bin/sh\ninput=$(cat)\necho "$input" >> ${log}\ncase "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"cite a source"}';; esac\n`,
    );
    chmodSync(hook, 0o755);
    mkdirSync(join(sb.home, '.claude'), { recursive: true });
    writeFileSync(
      join(sb.home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          SubagentStop: [{ matcher: 'researcher', hooks: [{ type: 'command', command: hook }] }],
        },
      }),
    );
    const llm = routed((req) => {
      const agent = agentOf(req);
      if (agent === 'main') return startsOnce(req, 'researcher');
      const last = req.messages.at(-1)!;
      return { text: last.content.includes('cite a source') ? 'facts (source: the sea)' : 'facts' };
    });
    await open(llm);
    const handle = await wb!.chat.send({ text: 'start' });
    expect((await handle.finished).stop_reason).toBe('completed');
    const inputs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const child = wb!.threads.children({ threadId: handle.threadId })[0];
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_type: 'researcher',
      agent_id: child.thread_id,
      stop_hook_active: false,
    });
    // The parent's own end is a Stop, not a SubagentStop: the hook ran for the subagent only.
    const parent = wb!.threads.get({ threadId: handle.threadId })!;
    expect(parent.messages.find((m) => m.role === 'tool')!.content).toBe('facts (source: the sea)');
  });
});

describe('executable hooks inside a subagent', () => {
  it('get invoked_by "subagent" and the child thread as conv_id; the main agent\'s get "main"', async () => {
    profile('reader', 'description: Reads', 'AGENT:reader');
    // One file per call: the main agent's and the subagent's hooks run at the same time.
    const log = join(sb.home, 'payloads');
    mkdirSync(log);
    const hook = join(sb.userHooks, 'audit');
    writeFileSync(
      hook,
      `#!/bin/sh\nif [ "$1" = hook ]; then echo before_tool_call; exit 0; fi\ncat > ${log}/$$.json\n`,
    );
    chmodSync(hook, 0o755);
    const llm = routed((req) => {
      const agent = agentOf(req);
      if (lastIsTool(req)) return { text: `${agent} done` };
      if (agent === 'main')
        return {
          toolCalls: [
            { name: 'ls', args: { path: '.' } },
            { name: 'task', args: { subagent_type: 'reader', description: 'look' } },
          ],
        };
      return { toolCalls: [{ name: 'read_file', args: { path: 'missing.txt' } }] };
    });
    await open(llm);
    const handle = await wb!.chat.send({ text: 'start' });
    expect((await handle.finished).stop_reason).toBe('completed');
    const child = wb!.threads.children({ threadId: handle.threadId })[0];
    const payloads = readdirSync(log).map(
      (f) => JSON.parse(readFileSync(join(log, f), 'utf8')) as Record<string, unknown>,
    );
    const by = (tool: string) =>
      payloads.find(
        (p) => (p.tool_input as Record<string, unknown> | undefined) && p.tool_name === tool,
      )!;
    expect(by('file_read')).toMatchObject({ invoked_by: 'subagent', conv_id: child.thread_id });
    expect(payloads.filter((p) => p.invoked_by === 'main').map((p) => p.conv_id)).toContain(
      handle.threadId,
    );
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a Claude Code agent's disallowedTools", () => {
  it('takes a named tool away from the subagent, and a rule such as Write(secret/**) takes those calls away', async () => {
    profile(
      'reviewer',
      'description: Reviews\ndisallowedTools: Bash, Write(secret/**)',
      'AGENT:reviewer',
    );
    const seen: ModelRequest[] = [];
    const llm = routed((req) => {
      const agent = agentOf(req);
      if (agent === 'main') return startsOnce(req, 'reviewer');
      seen.push(req);
      const told = req.messages.filter((m) => m.role === 'tool').length;
      if (told === 0)
        return {
          toolCalls: [{ name: 'write_file', args: { path: 'secret/key.txt', content: 'x' } }],
        };
      if (told === 1)
        return { toolCalls: [{ name: 'write_file', args: { path: 'notes.md', content: 'fine' } }] };
      return { text: 'reviewed' };
    });
    await open(llm);
    const handle = await wb!.chat.send({ text: 'start', approvalMode: 'auto' });
    expect((await handle.finished).stop_reason).toBe('completed');
    expect(offers(seen[0]!, 'execute')).toBe(false);
    expect(offers(seen[0]!, 'write_file')).toBe(true);
    const tools = seen
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(tools[0]).toBe(
      `Error: denied by your permission rule Write(secret/**) (${join(sb.ws, '.workbench', 'agents', 'reviewer.md')})`,
    );
    expect(existsSync(join(sb.ws, 'secret', 'key.txt'))).toBe(false);
    expect(readFileSync(join(sb.ws, 'notes.md'), 'utf8')).toBe('fine');
    // The main agent keeps every tool.
    expect(offers(llm.calls[0]!.request, 'execute')).toBe(true);
  });
});

describe("a Claude Code agent's frontmatter hooks", () => {
  it("run in that agent's runs only, its Stop as SubagentStop, and are listed with their agent", async () => {
    const log = join(sb.home, 'agent-stop.log');
    profile(
      'auditor',
      [
        'description: Audits',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        `          command: "echo 'no commands while auditing' >&2; exit 2"`,
        '  Stop:',
        '    - hooks:',
        '        - type: command',
        `          command: "cat > /dev/null; echo stopped >> ${log}"`,
      ].join('\n'),
      'AGENT:auditor',
    );
    const llm = routed((req) => {
      const told = req.messages.filter((m) => m.role === 'tool').length;
      if (agentOf(req) === 'main') {
        if (told === 0)
          return {
            toolCalls: [{ name: 'task', args: { subagent_type: 'auditor', description: 'audit' } }],
          };
        if (told === 1)
          return { toolCalls: [{ name: 'execute', args: { command: 'echo main-ran' } }] };
        return { text: 'ok' };
      }
      return told === 0
        ? { toolCalls: [{ name: 'execute', args: { command: 'echo sub-ran' } }] }
        : { text: 'audited' };
    });
    await open(llm);
    const handle = await wb!.chat.send({ text: 'start', approvalMode: 'auto' });
    expect((await handle.finished).stop_reason).toBe('completed');
    const child = wb!.threads.children({ threadId: handle.threadId })[0]!;
    const subTool = wb!.threads
      .get({ threadId: child.thread_id })!
      .messages.find((m) => m.role === 'tool');
    expect(subTool?.content).toBe('Error: blocked by hook echo: no commands while auditing');
    const mainTools = wb!.threads
      .get({ threadId: handle.threadId })!
      .messages.filter((m) => m.role === 'tool');
    expect(mainTools[1]?.content).toMatch(/^main-ran\n/);
    expect(readFileSync(log, 'utf8')).toBe('stopped\n');
    // The hooks panel lists them with their agent, and can try one.
    const listed = (await wb!.hooks!.list({ workspace: sb.ws })).hooks.filter(
      (h) => h.agent === 'auditor',
    );
    expect(listed.map((h) => [h.events[0], h.problem])).toEqual([
      ['PreToolUse', undefined],
      ['Stop', undefined],
    ]);
    const tried = await wb!.hooks!.test({ workspace: sb.ws, id: listed[0]!.id });
    expect(tried).toMatchObject({ decision: 'block', reason: 'no commands while auditing' });
  });
});

describe("a Claude Code agent's frontmatter hooks, switched off in the Hooks panel", () => {
  it('stay off when the agent runs as a subagent, its Stop then being SubagentStop', async () => {
    const log = join(sb.home, 'agent-stop.log');
    profile(
      'auditor',
      [
        'description: Audits',
        'hooks:',
        '  Stop:',
        '    - hooks:',
        '        - type: command',
        `          command: "cat > /dev/null; echo stopped >> ${log}"`,
      ].join('\n'),
      'AGENT:auditor',
    );
    const llm = routed((req) =>
      agentOf(req) === 'main' ? startsOnce(req, 'auditor') : { text: 'audited' },
    );
    await open(llm);
    const [stop] = (await wb!.hooks!.list({ workspace: sb.ws })).hooks.filter(
      (h) => h.agent === 'auditor',
    );
    await wb!.hooks!.setEnabled({ workspace: sb.ws, id: stop!.id, enabled: false });
    const handle = await wb!.chat.send({ text: 'start', approvalMode: 'auto' });
    expect((await handle.finished).stop_reason).toBe('completed');
    expect(wb!.threads.children({ threadId: handle.threadId })).toHaveLength(1);
    expect(existsSync(log)).toBe(false);
  });
});

describe("a Claude Code agent's permissionMode: plan", () => {
  it('lets the agent read but refuses its writes and commands, whatever the run allows', async () => {
    profile('planner', 'description: Plans\npermissionMode: plan', 'AGENT:planner');
    writeFileSync(join(sb.ws, 'README.md'), 'read me\n');
    const llm = routed((req) => {
      const told = req.messages.filter((m) => m.role === 'tool').length;
      if (agentOf(req) === 'main') return startsOnce(req, 'planner');
      if (told === 0) return { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] };
      if (told === 1)
        return { toolCalls: [{ name: 'write_file', args: { path: 'plan.md', content: 'x' } }] };
      if (told === 2) return { toolCalls: [{ name: 'execute', args: { command: 'touch ran' } }] };
      return { text: 'planned' };
    });
    await open(llm);
    const handle = await wb!.chat.send({ text: 'start', approvalMode: 'auto' });
    expect((await handle.finished).stop_reason).toBe('completed');
    const child = wb!.threads.children({ threadId: handle.threadId })[0]!;
    const tools = wb!.threads
      .get({ threadId: child.thread_id })!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => m.content);
    const why = `Error: denied: this agent only plans (permissionMode: plan in ${join(sb.ws, '.workbench', 'agents', 'planner.md')}): it may read, not change files or run commands`;
    expect(tools[0]).toContain('read me');
    expect(tools.slice(1)).toEqual([why, why]);
    expect(existsSync(join(sb.ws, 'plan.md'))).toBe(false);
    expect(existsSync(join(sb.ws, 'ran'))).toBe(false);
  });
});
