/** A minimal in-memory run context for loop tests: scripted model answers, tiny tools, event log. */
import { z } from 'zod';
import type { Hook, RunContext } from '../../../src/main/pipeline/hook.ts';
import { defaultAgentProfile } from '../../../src/main/agents/profile.ts';
import type { LlmClient, LlmResponse, ModelRequest } from '../../../src/main/llm/types.ts';
import { ToolRegistry } from '../../../src/main/tools/registry.ts';
import { defineTool, type Tool, type ToolEffects, type ToolKind } from '../../../src/main/tools/types.ts';
import type { Workspace } from '../../../src/main/tools/workspace.ts';
import { DEFAULT_SETTINGS, type AgentState, type Message, type RunEvent } from '../../../src/shared/types/index.ts';

export type Answer = Partial<LlmResponse> | ((req: ModelRequest) => Partial<LlmResponse> | Promise<Partial<LlmResponse>>);

export function scriptedLlm(answers: Answer[]): LlmClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async chat(req, opts) {
      requests.push(structuredClone(req));
      opts.signal.throwIfAborted();
      const next = answers.shift();
      if (!next) throw new Error('script exhausted');
      const partial = typeof next === 'function' ? await next(req) : next;
      if (partial.content) opts.onDelta?.(partial.content);
      return { content: '', tool_calls: [], ...partial };
    },
  };
}

/** A tool of the given kind: a write writes `args.path`, an execute runs `args.command`. */
export function testTool(name: string, kind: ToolKind, run: (args: Record<string, unknown>, signal: AbortSignal) => Promise<string>): Tool {
  const effects = (args: Record<string, unknown>): ToolEffects => {
    if (kind === 'execute') return { executes: String(args.command ?? '') };
    if (kind === 'write') return { writes: typeof args.path === 'string' ? [args.path] : [] };
    return {};
  };
  return defineTool({
    name,
    description: `test tool ${name}`,
    parameters: z.object({ value: z.string().optional() }).loose(),
    effects,
    execute: (args, ctx) => run(args, ctx.signal),
  });
}

export function harness(llm: LlmClient, tools: Tool[], extra: Partial<RunContext> = {}) {
  const events: RunEvent[] = [];
  const state: AgentState = { thread_id: 'th_test', messages: [{ role: 'user', content: 'go' }], todos: [], files: {} };
  const registry = new ToolRegistry();
  const controller = new AbortController();
  const toolHook: Hook = { name: 'tools', source: 'builtin', beforeAgent: async (c) => tools.forEach((t) => c.tools.register(t)) };
  const ctx: RunContext = {
    threadId: state.thread_id,
    runId: 'run_1',
    workspace: { root: '/ws', extraRoots: [], programs: () => [] } as unknown as Workspace,
    home: '/home',
    model: 'test-model',
    llm,
    settings: DEFAULT_SETTINGS,
    profile: defaultAgentProfile('/ws'),
    signal: controller.signal,
    state,
    tools: registry,
    trusted: true,
    emit: (e) => events.push(e),
    recordFile: (p, c) => (state.files[p] = c),
    setTodos: (t) => (state.todos = t),
    ...extra,
  };
  const append = (msgs: Message[]) => state.messages.push(...msgs);
  const replace = (msgs: Message[]) => state.messages.splice(0, state.messages.length, ...msgs);
  return { ctx, events, state, controller, toolHook, append, replace };
}
