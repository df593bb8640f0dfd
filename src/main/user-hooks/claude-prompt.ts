/**
 * Claude Code's `prompt` handlers (docs/hooks.md, "prompt handlers"): one question to the model —
 * the handler's `model`, else the run's — with the hook's input in place of `$ARGUMENTS` (appended
 * when the prompt has none). The model answers `{"ok": true}` to let the event go ahead or
 * `{"ok": false, "reason": "…"}` to stop it, which becomes the event's own block: a denied tool
 * call, a refused prompt, an agent kept working. The answer is handed on as a command handler's
 * stdout would be, so it is read, recorded and shown the same way; an answer that is not such JSON,
 * an unreachable model or the timeout is a non-blocking error.
 */
import type { LlmClient } from '../llm/types.ts';
import { errorMessage } from '../errors.ts';
import { isRecord } from './json-output.ts';
import { hookProcessResult, type HookProcessResult, type HookProcessSpec } from './runner.ts';

/** What a prompt handler asks. */
export interface PromptTarget {
  prompt: string;
  /** The model to ask; absent: the run's. */
  model?: string;
}

/** The model a run's prompt handlers ask. */
export interface PromptModel {
  llm: LlmClient;
  model: string;
}

/** The events whose answer a prompt or agent handler can give (Claude Code offers them on these). */
export const PROMPT_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
]);

/** A prompt (or agent) handler's fields as a target, or why it cannot run. */
export function parsePromptHandler(
  h: Record<string, unknown>,
  event: string,
  kind: 'prompt' | 'agent' = 'prompt',
): PromptTarget | string {
  if (typeof h.prompt !== 'string' || h.prompt.trim() === '')
    return `${kind === 'agent' ? 'an agent' : 'a prompt'} handler needs a "prompt" string`;
  if (h.model !== undefined && (typeof h.model !== 'string' || h.model.trim() === ''))
    return '"model" must be a model name';
  if (!PROMPT_EVENTS.has(event))
    return `${kind} handlers answer only ${[...PROMPT_EVENTS].join(', ')}: on ${event} this handler never runs`;
  return { prompt: h.prompt, ...(typeof h.model === 'string' ? { model: h.model } : {}) };
}

const SYSTEM = [
  "You are a hook in a coding agent's pipeline. You judge one event, given as JSON, against the user's instruction below it.",
  'Answer with one JSON object and nothing else: {"ok": true} to let the event go ahead, or {"ok": false, "reason": "..."} to stop it, the reason written for the agent.',
].join('\n');

/** A model's verdict on a hook's event. */
export interface HookVerdict {
  ok: boolean;
  reason?: string;
}

/** The model's verdict, or why its answer is not one. */
export function readAnswer(content: string): HookVerdict | string {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start < 0 || end < start) return 'the model did not answer with a JSON object';
  let value: unknown;
  try {
    value = JSON.parse(content.slice(start, end + 1));
  } catch (err) {
    return `the model's answer is not valid JSON: ${errorMessage(err)}`;
  }
  if (!isRecord(value)) return 'the model did not answer with a JSON object';
  const reason =
    typeof value.reason === 'string' && value.reason.trim() ? value.reason.trim() : undefined;
  // The older form of the answer: {"decision": "approve" | "block", "reason": "…"}.
  const ok =
    typeof value.ok === 'boolean'
      ? value.ok
      : value.decision === 'approve'
        ? true
        : value.decision === 'block'
          ? false
          : undefined;
  if (ok === undefined) return 'the model\'s answer has no "ok": true or false';
  return { ok, ...(reason ? { reason } : {}) };
}

/** The event a hook input is for; undefined when the input is not JSON. */
export function hookEvent(input: string): string | undefined {
  try {
    return String((JSON.parse(input) as { hook_event_name?: unknown }).hook_event_name ?? '');
  } catch {
    return undefined;
  }
}

/** A "stop" from the model as the event's own JSON answer. */
function blockAnswer(event: string, reason: string): object {
  if (event === 'PreToolUse')
    return {
      hookSpecificOutput: {
        hookEventName: event,
        permissionDecision: 'deny',
        permissionDecisionReason: reason,
      },
    };
  if (event === 'PermissionRequest')
    return {
      hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message: reason } },
    };
  return { decision: 'block', reason };
}

/** The handler's prompt with the hook's input in place of `$ARGUMENTS` (appended when it has none). */
export function questionOf(prompt: string, input: string): string {
  return prompt.includes('$ARGUMENTS')
    ? prompt.replaceAll('$ARGUMENTS', input)
    : `${prompt}\n\n${input}`;
}

/**
 * A verdict as a process result: ok as exit 0 with no output, not ok as exit 0 with the event's
 * block as stdout; `said` (what the model wrote) is the stderr.
 */
export function verdictResult(
  started: number,
  event: string,
  verdict: HookVerdict,
  said: string,
  by: string,
): HookProcessResult {
  const stdout = verdict.ok
    ? ''
    : JSON.stringify(blockAnswer(event, verdict.reason ?? `stopped by ${by}`));
  return hookProcessResult(started, {
    exitCode: 0,
    stdout,
    stdoutBytes: Buffer.byteLength(stdout),
    stderr: said,
    stderrBytes: Buffer.byteLength(said),
  });
}

/**
 * Asks the model and reports its verdict as a process result: `{"ok": true}` as exit 0 with no
 * output, `{"ok": false}` as exit 0 with the event's block as stdout; the model's own words are the
 * stderr. Contract: never rejects.
 */
export async function askPromptHook(
  target: PromptTarget,
  spec: HookProcessSpec,
  model: PromptModel | undefined,
): Promise<HookProcessResult> {
  const started = performance.now();
  const fail = (error: string, fields: Partial<HookProcessResult> = {}) =>
    hookProcessResult(started, { error, errorType: 'prompt_error', ...fields });
  if (!model) return fail('a prompt handler asks the model, and none was given to ask');
  if (spec.signal?.aborted) return fail('cancelled');
  const input = spec.stdin ?? '';
  const event = hookEvent(input);
  if (event === undefined) return fail('the hook input is not JSON');
  const question = questionOf(target.prompt, input);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), spec.timeoutMs);
  const onCancel = () => stop.abort();
  spec.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    const res = await model.llm.chat(
      {
        model: target.model ?? model.model,
        system: [SYSTEM],
        messages: [{ role: 'user', content: question }],
        tools: [],
        params: { temperature: 0 },
      },
      { signal: stop.signal },
    );
    const stderr = `the model answered: ${res.content.slice(0, 2000)}`;
    const answer = res.interrupted
      ? `the model's answer broke off: ${res.error ?? 'stream ended'}`
      : readAnswer(res.content);
    if (typeof answer === 'string')
      return fail(answer, { stderr, stderrBytes: Buffer.byteLength(stderr) });
    return verdictResult(started, event, answer, stderr, 'a prompt hook');
  } catch (err) {
    if (spec.signal?.aborted) return fail('cancelled');
    if (stop.signal.aborted) return hookProcessResult(started, { timedOut: true });
    return fail(`the model could not be asked: ${errorMessage(err)}`);
  } finally {
    clearTimeout(timer);
    spec.signal?.removeEventListener('abort', onCancel);
  }
}
