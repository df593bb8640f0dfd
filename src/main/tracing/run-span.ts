/** The root span of a run (`invoke_agent workbench`), started and ended by the agent loop's owner. */
import type { TraceRecorder, SpanHandle } from './types.ts';

/** Our agent's name in `invoke_agent {gen_ai.agent.name}`. */
export const AGENT_NAME = 'workbench';
/** GenAI semconv provider for any OpenAI-compatible endpoint. */
export const PROVIDER_NAME = 'openai';

export interface RunSpanInfo {
  model: string;
  threadId: string;
  workspace: string;
  agentName?: string;
  /** A subagent run's root nests under this span of its parent run (docs/agents.md). */
  parent?: SpanHandle;
}

export interface RunSpanOutcome {
  stop_reason: string;
  iterations: number;
  input_tokens: number;
  output_tokens: number;
  error?: string;
}

/**
 * Starts the run's root span (kind 'agent'). Contract: call before anything else is traced, then
 * run the loop inside `recorder.withSpan(span, …)`; the recorder also parents stray spans to it.
 */
export function startRunSpan(recorder: TraceRecorder, info: RunSpanInfo): SpanHandle {
  const agent = info.agentName ?? AGENT_NAME;
  return recorder.startSpan(`invoke_agent ${agent}`, 'agent', {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': PROVIDER_NAME,
    'gen_ai.agent.name': agent,
    'gen_ai.conversation.id': info.threadId,
    'gen_ai.request.model': info.model,
    'session.id': info.threadId,
    'workbench.workspace': info.workspace,
  }, info.parent);
}

/** Puts run metadata on the root span as `workbench.metadata.<key>` attributes (docs/events.md). */
export function setRunMetadata(span: SpanHandle, metadata: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(metadata)) span.set(`workbench.metadata.${key}`, value);
}

/** Records the run's totals and ends the root span; an error or stop_reason 'error' marks it failed. */
export function endRunSpan(span: SpanHandle, outcome: RunSpanOutcome): void {
  span.setAll({
    'workbench.stop_reason': outcome.stop_reason,
    'workbench.iterations': outcome.iterations,
    'gen_ai.usage.input_tokens': outcome.input_tokens,
    'gen_ai.usage.output_tokens': outcome.output_tokens,
  });
  if (outcome.error !== undefined || outcome.stop_reason === 'error') {
    span.fail('run_error', outcome.error ?? 'the run ended with an error');
  }
  span.end();
}
