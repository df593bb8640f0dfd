/**
 * Replay against history (docs/hooks.md, "Replay"): runs one tool-call hook on the recorded tool
 * calls of past threads with the payloads a live run would have sent, plus `"dry_run": true`, and
 * says what it would have done to each call. Its answers are only read, never applied; replay runs
 * are not recorded in hook_runs, so they never count toward a hook's health.
 */
import type {
  HookReplayRow,
  Message,
  ToolCall,
  ToolResult,
  WorkbenchSettings,
} from '../../shared/types/index.ts';
import type { ThreadStore } from '../store/types.ts';
import { createFilesystemTools } from '../tools/index.ts';
import { WorkbenchError } from '../errors.ts';
import { readClaudeResult, type ClaudeVerdict } from './claude-output.ts';
import { claudeExec, claudeRef, claudeSpec, type HandlerRunner } from './claude-hooks.ts';
import { claudeToolName, matcherMatches, permissionMode, toClaudeInput } from './claude-tools.ts';
import { readExecutableResult, executableRef } from './executable-hooks.ts';
import { basePayload, executableDecision } from './executable-events.ts';
import { readAfterToolResult, readBlockResult, toStructured } from './executable-protocol.ts';
import { runAndRecord } from './record.ts';
import { buildHookEnv } from '../env/child-env.ts';
import type { TestTarget } from './hook-test.ts';
import {
  dialectToolName,
  toDialectInput,
  toDialectResponse,
  type ToolLookup,
} from './tool-dialect.ts';
import { writeTranscript } from './transcript.ts';
import { hookSandbox, type HookSandboxContext } from './runner.ts';

/** Tool-call events a replay can run; other events have no recorded call to replay. */
export const REPLAY_EVENTS = [
  'before_tool_call',
  'after_tool_call',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
];
/** Most calls one replay runs the hook on (the newest are kept). */
export const REPLAY_MAX_CALLS = 200;

/** One recorded call: the call, its stored result (absent if it never ended) and the messages before it. */
export interface RecordedCall {
  threadId: string;
  call: ToolCall;
  result?: ToolResult;
  before: Message[];
}

/** The stored result of a tool message (`Error: <error>\n<output>` for a failed call). */
function resultOf(m: Message, call: ToolCall): ToolResult {
  const status = m.status ?? (m.content.startsWith('Error: ') ? 'error' : 'ok');
  if (status === 'ok') return { tool_call_id: call.id, name: call.name, output: m.content, status };
  const [first, ...rest] = m.content.replace(/^Error: /, '').split('\n');
  return { tool_call_id: call.id, name: call.name, output: rest.join('\n'), error: first, status };
}

/** Every tool call of the threads' stored messages, in thread order, with its result. */
export function recordedCalls(
  threads: Pick<ThreadStore, 'get'>,
  threadIds: readonly string[],
): RecordedCall[] {
  const out: RecordedCall[] = [];
  for (const threadId of threadIds) {
    const messages = threads.get(threadId)?.messages ?? [];
    const results = new Map(
      messages.filter((m) => m.role === 'tool' && m.tool_call_id).map((m) => [m.tool_call_id!, m]),
    );
    messages.forEach((m, i) => {
      if (m.role !== 'assistant' || m.interrupted) return;
      for (const call of m.tool_calls ?? []) {
        const stored = results.get(call.id);
        out.push({
          threadId,
          call,
          result: stored ? resultOf(stored, call) : undefined,
          before: messages.slice(0, i + 1),
        });
      }
    });
  }
  return out;
}

type Verdict = Pick<HookReplayRow, 'verdict' | 'reason'>;

function claudeVerdict(v: ClaudeVerdict): Verdict {
  if (v.failed !== undefined) return { verdict: 'error', reason: v.failed };
  const stop = v.halt ?? v.block;
  if (stop !== undefined) return { verdict: 'block', reason: stop };
  // With nobody to ask, a live run denies (docs/hooks.md): it would have blocked unless the user agreed.
  if (v.ask !== undefined)
    return { verdict: 'block', reason: `asks for confirmation${v.ask ? `: ${v.ask}` : ''}` };
  if (v.updatedInput)
    return { verdict: 'rewrite', reason: `input → ${JSON.stringify(v.updatedInput)}` };
  if (v.updatedToolOutput !== undefined || v.updatedMCPToolOutput !== undefined)
    return { verdict: 'rewrite', reason: 'replaces the output' };
  return { verdict: 'allow' };
}

export interface ReplayOptions {
  calls: RecordedCall[];
  event: string;
  workspace: string;
  home: string;
  settings: WorkbenchSettings;
  /** Tool definitions for the dialect names; the built-in tools by default. */
  tools?: ToolLookup;
  signal?: AbortSignal;
  /** What http and prompt handlers need (the variables headers name, the model). */
  runner?: HandlerRunner;
}

/**
 * Runs the hook once per recorded call (as `event`) and reads what it would have done.
 * Contract: never applies an answer, never writes hook_runs; a failing run is an `error` row;
 * a Claude handler whose matcher skips a call's tool gives no row for it.
 */
export async function replayHook(t: TestTarget, o: ReplayOptions): Promise<HookReplayRow[]> {
  if (!REPLAY_EVENTS.includes(o.event))
    throw new WorkbenchError(
      'invalid_args',
      `replay runs tool-call hooks (${REPLAY_EVENTS.join(', ')}), not ${o.event}`,
    );
  const tools = o.tools ?? new Map(createFilesystemTools().map((tool) => [tool.name, tool]));
  const rows: HookReplayRow[] = [];
  for (const rec of o.calls.slice(-REPLAY_MAX_CALLS)) {
    o.signal?.throwIfAborted();
    const { call } = rec;
    const row = {
      thread_id: rec.threadId,
      tool_call_id: call.id,
      tool: call.name,
      args: call.args,
    };
    const v =
      t.dialect === 'executable'
        ? await runExecutable(t, rec, tools, o)
        : await runClaude(t, rec, tools, o);
    if (v) rows.push({ ...row, ...v });
  }
  return rows;
}

async function runExecutable(
  t: Extract<TestTarget, { dialect: 'executable' }>,
  rec: RecordedCall,
  tools: ToolLookup,
  o: ReplayOptions,
): Promise<Verdict | undefined> {
  const event = o.event as 'before_tool_call' | 'after_tool_call';
  if (event !== 'before_tool_call' && event !== 'after_tool_call') return undefined;
  const { call } = rec;
  if (event === 'after_tool_call' && !rec.result) return undefined;
  const toolName = dialectToolName(tools, 'kodelet', call.name);
  const input = toDialectInput(tools, 'kodelet', call.name, call.args, o.workspace);
  const fields: Record<string, unknown> = {
    tool_name: toolName,
    tool_input: input,
    tool_user_id: call.id,
  };
  if (event === 'after_tool_call') {
    const result = rec.result!;
    const metadata = toDialectResponse(tools, 'kodelet', call.name, call.args, result, o.workspace);
    Object.assign(fields, {
      tool_output: toStructured(result, toolName, metadata),
      blocked: result.status === 'blocked',
    });
  }
  const stdin = JSON.stringify({
    ...basePayload(event, rec.threadId, o.workspace),
    ...fields,
    dry_run: true,
  });
  const ref = { ...executableRef(t.entry, o.settings), event };
  let verdict: Verdict = { verdict: 'allow' };
  const spec = {
    command: t.entry.path,
    args: ['run'],
    cwd: o.workspace,
    env: buildHookEnv(o.workspace),
    stdin,
    timeoutMs: ref.timeoutMs,
    ...hookSandbox(ref.sandbox, sandboxOf(o), o.workspace, [t.entry.path]),
  };
  await runAndRecord({ signal: o.signal }, ref, stdin, spec, (res) => {
    const r = readExecutableResult(res, (value) => executableDecision(event, value));
    if (r.reading.error) verdict = { verdict: 'error', reason: r.reading.error };
    else if (r.value && event === 'before_tool_call') {
      const b = readBlockResult(r.value);
      if (b.blocked) verdict = { verdict: 'block', reason: b.reason || 'blocked' };
      else if (b.input)
        verdict = { verdict: 'rewrite', reason: `input → ${JSON.stringify(b.input)}` };
    } else if (r.value && readAfterToolResult(r.value).output)
      verdict = { verdict: 'rewrite', reason: 'replaces the output' };
    return r.reading;
  });
  return verdict;
}

async function runClaude(
  t: Extract<TestTarget, { dialect: 'claude' }>,
  rec: RecordedCall,
  tools: ToolLookup,
  o: ReplayOptions,
): Promise<Verdict | undefined> {
  const { call, result } = rec;
  const toolName = claudeToolName(tools, call.name);
  if (!matcherMatches(t.handler.matcher, toolName)) return undefined;
  // PostToolUse sees calls that ended fine, PostToolUseFailure the others (as a live run fires them).
  if (
    o.event !== 'PreToolUse' &&
    (!result || (o.event === 'PostToolUse') === Boolean(result.error))
  )
    return undefined;
  const transcriptSource = {
    home: o.home,
    threadId: `replay-${rec.threadId}`,
    cwd: o.workspace,
    tools,
  };
  const input: Record<string, unknown> = {
    session_id: rec.threadId,
    transcript_path: writeTranscript(transcriptSource, rec.before),
    cwd: o.workspace,
    permission_mode: permissionMode(o.settings.approval_mode),
    hook_event_name: o.event,
    tool_name: toolName,
    tool_input: toClaudeInput(tools, call.name, call.args, o.workspace),
    tool_use_id: call.id,
    ...(o.event === 'PostToolUse'
      ? {
          tool_response: toDialectResponse(
            tools,
            'claude',
            call.name,
            call.args,
            result!,
            o.workspace,
          ),
        }
      : {}),
    ...(o.event === 'PostToolUseFailure'
      ? { error: result!.error, is_interrupt: result!.status === 'cancelled' }
      : {}),
    dry_run: true,
  };
  const stdin = JSON.stringify(input);
  let verdict: Verdict = { verdict: 'allow' };
  await runAndRecord(
    { signal: o.signal },
    { ...claudeRef(t.handler, o.settings), event: o.event },
    stdin,
    claudeSpec(t.handler, o.workspace, stdin, sandboxOf(o)),
    (res) => {
      const r = readClaudeResult(o.event, res);
      verdict = claudeVerdict(r.verdict);
      return r.reading;
    },
    claudeExec(t.handler, o.runner),
  );
  return verdict;
}

/** A replayed hook that opted in to the sandbox runs in it, as it would live. */
function sandboxOf(o: ReplayOptions): HookSandboxContext {
  return { settings: o.settings.sandbox, workbenchHome: o.home };
}
