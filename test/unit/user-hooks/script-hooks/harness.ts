/**
 * Runs the agent loop with a profile's script hook: a real child per Create / Next call, the scripted
 * LLM as the model, and a `runSubagent` that runs a real second loop on its own scripted LLM.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { runAgentLoop, type RunSummary } from '../../../../src/main/agent/loop.ts';
import type {
  SubagentRequest,
  SubagentResult,
} from '../../../../src/main/agents/subagent-types.ts';
import type { RunContext } from '../../../../src/main/pipeline/hook.ts';
import { createPipeline } from '../../../../src/main/pipeline/run-phase.ts';
import { createScriptHook } from '../../../../src/main/user-hooks/script-hooks/index.ts';
import { defineTool } from '../../../../src/main/tools/types.ts';
import type { Workspace } from '../../../../src/main/tools/workspace.ts';
import type { SpanHandle, TraceRecorder } from '../../../../src/main/tracing/types.ts';
import type { Message, RunEvent } from '../../../../src/shared/types/index.ts';
import {
  createScriptedLlm,
  type ScriptedLlm,
  type ScriptedTurn,
} from '../../../helpers/scripted-llm.ts';
import { harness } from '../../agent/loop-harness.ts';

/** A tool answering `{"intent": <value>}`, so Next can route on a tool result. */
export const intentTool = defineTool({
  name: 'classify',
  description: 'classifies the request',
  parameters: z.object({ value: z.string() }),
  effects: () => ({}),
  execute: async (args) => JSON.stringify({ intent: args.value }),
});

/** A trace recorder that only remembers what was recorded. */
export function recordingTrace(): TraceRecorder & {
  events: string[];
  spans: Array<{ name: string; events: string[]; failed?: string }>;
} {
  const events: string[] = [];
  const spans: Array<{ name: string; events: string[]; failed?: string }> = [];
  const handle = (entry: { name: string; events: string[]; failed?: string }): SpanHandle => {
    const h: SpanHandle = {
      record: { span_id: `s${spans.length}` } as SpanHandle['record'],
      set: () => h,
      setAll: () => h,
      addEvent: (name, attrs) => (
        entry.events.push(`${name} ${String(attrs?.message ?? '')}`.trim()),
        h
      ),
      fail: (type) => ((entry.failed = type), h),
      end: () => {},
    };
    return h;
  };
  return {
    events,
    spans,
    startSpan: (name) => {
      const entry = { name, events: [] as string[] };
      spans.push(entry);
      return handle(entry);
    },
    withSpan: (_span, fn) => fn(),
    currentSpan: () => undefined,
    recordEvent: (name) => void events.push(name),
  };
}

export interface ScriptRun {
  summary: RunSummary;
  events: RunEvent[];
  messages: Message[];
  llm: ScriptedLlm;
  delegated: SubagentRequest[];
  subLlm: ScriptedLlm;
  trace: ReturnType<typeof recordingTrace>;
}

export interface ScriptRunOptions {
  script: string;
  turns: ScriptedTurn[];
  /** What the delegate's model answers. */
  subTurns?: ScriptedTurn[];
  deadlineMs?: number;
  /** Leave `runSubagent` off the context (a run at the depth limit). */
  noSubagents?: boolean;
  /** The thread before the run (default: one user message `go`). */
  history?: Message[];
  /** Cancels the run as soon as this holds (checked every 50 ms). */
  cancelWhen?: () => boolean;
}

/** A workspace folder holding `hooks.ts`; removed by `cleanup`. */
export function scriptFolder(): { dir: string; write(source: string): string; cleanup(): void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'wb-script-')));
  return {
    dir,
    write: (source) => {
      const path = join(dir, 'hooks.ts');
      writeFileSync(path, source);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs one user message through the loop with the script as the profile's hook. */
export async function runWithScript(
  dir: string,
  scriptPath: string,
  o: ScriptRunOptions,
): Promise<ScriptRun> {
  const llm = createScriptedLlm(o.turns);
  const subLlm = createScriptedLlm(o.subTurns ?? []);
  const delegated: SubagentRequest[] = [];
  const trace = recordingTrace();
  const runSubagent = async (request: SubagentRequest): Promise<SubagentResult> => {
    delegated.push(request);
    const sub = harness(subLlm, []);
    sub.state.messages.splice(0, sub.state.messages.length, ...request.messages);
    await runAgentLoop({
      ctx: sub.ctx,
      pipeline: createPipeline([]),
      maxIterations: 3,
      append: sub.append,
      replaceMessages: sub.replace,
    });
    const last = sub.state.messages.at(-1);
    return { content: last?.content ?? '', threadId: 'th_sub', status: 'ok' };
  };
  const extra: Partial<RunContext> = {
    workspace: { root: dir, extraRoots: [], programs: () => [] } as unknown as Workspace,
    trace,
    ...(o.noSubagents ? {} : { runSubagent }),
  };
  const h = harness(llm, [intentTool], extra);
  if (o.history) h.state.messages.splice(0, h.state.messages.length, ...o.history);
  const cancel = setInterval(() => {
    if (o.cancelWhen?.()) h.controller.abort();
  }, 50);
  const hook = createScriptHook({ scriptPath, profileName: 'main', deadlineMs: o.deadlineMs });
  const summary = await runAgentLoop({
    ctx: h.ctx,
    pipeline: createPipeline([h.toolHook, hook]),
    maxIterations: 5,
    append: h.append,
    replaceMessages: h.replace,
  });
  clearInterval(cancel);
  return { summary, events: h.events, messages: h.state.messages, llm, delegated, subLlm, trace };
}

/** The `on_hook_end` events of the script's calls, as `fn:ok`. */
export function hookEnds(events: RunEvent[]): string[] {
  return events.flatMap((e) => (e.event === 'on_hook_end' ? [`${e.data.event}:${e.data.ok}`] : []));
}
