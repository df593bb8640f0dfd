/**
 * Links both ways between a chat tool card and its span: the card opens the span in the trace, the
 * span's drawer scrolls the chat to the card. A tiny store so neither side imports the other.
 */
import { create } from 'zustand';
import type { SpanRecord } from '../../../shared/types/index.ts';
import type { Row } from '../chat/rows.ts';

interface RevealState {
  /** The tool call the chat should scroll to, with a counter so the same call can be asked twice. */
  call: { id: string; seq: number } | null;
  revealCall(id: string): void;
}

/** The reveal store. */
export const useReveal = create<RevealState>()((set, get) => ({
  call: null,
  revealCall: (id) => set({ call: { id, seq: (get().call?.seq ?? 0) + 1 } }),
}));

/** The tool call id a span stands for, if it is a tool span. */
export function callIdOfSpan(span: SpanRecord): string | undefined {
  const id = span.attributes['gen_ai.tool.call.id'];
  return span.kind === 'tool' && typeof id === 'string' ? id : undefined;
}

/** The span of a tool call among a thread's spans. */
export function spanOfCall(spans: readonly SpanRecord[], callId: string): SpanRecord | undefined {
  return spans.find((s) => callIdOfSpan(s) === callId);
}

/** The index of the chat row holding a tool call, or -1. */
export function rowOfCall(rows: readonly Row[], callId: string): number {
  return rows.findIndex((r) => r.kind === 'tools' && r.calls.some((c) => c.id === callId));
}
