/**
 * Claude Code's `agent` handlers (docs/hooks.md, "agent handlers"): like a prompt handler, the
 * model judges the hook's input against the handler's prompt, but over several turns with the
 * workspace's read tools (read_file, grep and glob: Claude Code's Read, Grep and Glob) before it
 * gives its verdict by calling `hook_verdict` (or answering with the JSON a prompt handler gives).
 * Its tool calls run as the run's own would for reading — the workspace's path guard, the user's
 * permission rules (an ask rule refuses: nobody can be asked inside a hook) — but past the hook
 * pipeline, so a hook never triggers itself. What the agent read and said is the hook run's stderr.
 */
import type { Message, ToolCall, ToolResult } from '../../shared/types/index.ts';
import { MAX_RESULT_CHARS } from '../../shared/constants.ts';
import { dispatchToolCall } from '../agent/tool-dispatch.ts';
import type { LlmClient, ToolSchema } from '../llm/types.ts';
import { evict } from '../middleware/filesystem.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { Workspace } from '../tools/workspace.ts';
import { errorMessage } from '../errors.ts';
import { claudeToolName } from './claude-tools.ts';
import {
  hookEvent,
  questionOf,
  readAnswer,
  verdictResult,
  type HookVerdict,
  type PromptTarget,
} from './claude-prompt.ts';
import { hookProcessResult, type HookProcessResult, type HookProcessSpec } from './runner.ts';

/** The most model calls one agent handler makes before it is a failure (as Claude Code caps it). */
const AGENT_HOOK_MAX_TURNS = 50;

/** The tools an agent handler may use, by their Claude Code names. */
const READ_TOOLS = new Set(['Read', 'Grep', 'Glob']);

/** What an agent handler works with: the model, the workspace and its read tools, the user's rules. */
export interface AgentHookRunner {
  llm: LlmClient;
  /** The model asked when the handler names none. */
  model: string;
  workspace: Workspace;
  /** The tools to pick the read tools from (the run's own). */
  tools: ToolRegistry;
  /** Why the user's permission rules refuse a call; undefined when they let it run. */
  refuse?: (call: ToolCall) => string | undefined;
}

const VERDICT_TOOL: ToolSchema = {
  name: 'hook_verdict',
  description: 'Give your verdict on the event. Call it once, when you have decided.',
  parameters: {
    type: 'object',
    properties: {
      ok: { type: 'boolean', description: 'true lets the event go ahead; false stops it' },
      reason: { type: 'string', description: 'why it stops, written for the agent' },
    },
    required: ['ok'],
  },
};

const SYSTEM = [
  "You are a hook in a coding agent's pipeline. You verify one event, given as JSON, against the user's instruction below it.",
  'You may read the workspace with the tools you have before you decide; you cannot change anything.',
  'When you have decided, call hook_verdict with {"ok": true} to let the event go ahead, or {"ok": false, "reason": "..."} to stop it, the reason written for the agent.',
].join('\n');

/** The run's read tools (those Claude Code calls Read, Grep and Glob), in a registry of their own. */
function agentHookTools(tools: ToolRegistry): ToolRegistry {
  const picked = new ToolRegistry();
  for (const tool of tools.list())
    if (READ_TOOLS.has(claudeToolName(tools, tool.name))) picked.register(tool);
  return picked;
}

/** The verdict a `hook_verdict` call gives, or why it gives none. */
function verdictOf(call: ToolCall): HookVerdict | string {
  const { ok, reason } = call.args;
  if (typeof ok !== 'boolean') return 'hook_verdict was called without "ok": true or false';
  const text = typeof reason === 'string' && reason.trim() ? reason.trim() : undefined;
  return { ok, ...(text ? { reason: text } : {}) };
}

/** One line of the transcript for a tool call: its name, its arguments, how it ended. */
function transcriptLine(call: ToolCall, result: ToolResult): string {
  const args = JSON.stringify(call.args).slice(0, 200);
  const outcome = result.error
    ? `refused: ${result.error.slice(0, 200)}`
    : `${result.output.length} characters`;
  return `${call.name} ${args} → ${outcome}`;
}

/**
 * Lets the agent work on the event and reports its verdict as a prompt handler's is reported.
 * Contract: never rejects; at most AGENT_HOOK_MAX_TURNS model calls within `spec.timeoutMs`.
 */
export async function runAgentHook(
  target: PromptTarget,
  spec: HookProcessSpec,
  runner: AgentHookRunner | undefined,
): Promise<HookProcessResult> {
  const started = performance.now();
  const transcript: string[] = [];
  // What the agent read and said is kept whatever the outcome: the hooks panel shows it.
  const ended = (fields: Partial<HookProcessResult>) => {
    const stderr = transcript.join('\n');
    return hookProcessResult(started, {
      stderr,
      stderrBytes: Buffer.byteLength(stderr),
      ...fields,
    });
  };
  const fail = (error: string) => ended({ error, errorType: 'agent_error' });
  if (!runner)
    return fail('an agent handler needs the model and the workspace, and none was given');
  if (spec.signal?.aborted) return fail('cancelled');
  const input = spec.stdin ?? '';
  const event = hookEvent(input);
  if (event === undefined) return fail('the hook input is not JSON');
  const tools = agentHookTools(runner.tools);
  const schemas = [...tools.schemas(), VERDICT_TOOL];
  const messages: Message[] = [{ role: 'user', content: questionOf(target.prompt, input) }];
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), spec.timeoutMs);
  const onCancel = () => stop.abort();
  spec.signal?.addEventListener('abort', onCancel, { once: true });
  const state = { thread_id: 'hook', messages: [], todos: [], files: {} };
  try {
    for (let turn = 1; turn <= AGENT_HOOK_MAX_TURNS; turn++) {
      const res = await runner.llm.chat(
        {
          model: target.model ?? runner.model,
          system: [SYSTEM],
          messages,
          tools: schemas,
          params: { temperature: 0 },
        },
        { signal: stop.signal },
      );
      if (res.content.trim()) transcript.push(`the agent said: ${res.content.slice(0, 2000)}`);
      if (res.interrupted)
        return fail(`the agent's answer broke off: ${res.error ?? 'stream ended'}`);
      const called = res.tool_calls.find((c) => c.name === VERDICT_TOOL.name);
      if (called) {
        transcript.push(`hook_verdict ${JSON.stringify(called.args).slice(0, 2000)}`);
        const verdict = verdictOf(called);
        if (typeof verdict === 'string') return fail(verdict);
        return verdictResult(started, event, verdict, transcript.join('\n'), 'an agent hook');
      }
      if (res.tool_calls.length === 0) {
        const answer = readAnswer(res.content);
        if (typeof answer === 'string') return fail(answer);
        return verdictResult(started, event, answer, transcript.join('\n'), 'an agent hook');
      }
      messages.push({ role: 'assistant', content: res.content, tool_calls: res.tool_calls });
      for (const call of res.tool_calls) {
        const refused = tools.get(call.name) ? runner.refuse?.(call) : undefined;
        const result: ToolResult = refused
          ? { tool_call_id: call.id, name: call.name, output: '', error: refused, status: 'denied' }
          : await dispatchToolCall(call, {
              tools,
              invalidArgs: res.invalid_args,
              context: (c) => ({
                callId: c.id,
                workspace: runner.workspace,
                signal: stop.signal,
                state,
              }),
            });
        transcript.push(transcriptLine(call, result));
        const output =
          result.output.length > MAX_RESULT_CHARS && !tools.get(call.name)?.boundedOutput
            ? evict(result.output)
            : result.output;
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          name: call.name,
          content: result.error ? `Error: ${result.error}` : output,
          status: result.status,
        });
      }
    }
    return fail(`the agent gave no verdict in ${AGENT_HOOK_MAX_TURNS} turns`);
  } catch (err) {
    if (spec.signal?.aborted) return fail('cancelled');
    if (stop.signal.aborted) return ended({ timedOut: true });
    return fail(`the model could not be asked: ${errorMessage(err)}`);
  } finally {
    clearTimeout(timer);
    spec.signal?.removeEventListener('abort', onCancel);
  }
}
