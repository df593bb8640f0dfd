/** Trace timeline state: spans per thread (server data via applySpanEvents), selection, export/import. */
import type { StateCreator } from 'zustand';
import type { HookRunRecord } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { EMPTY_TRACE, setThreadSpans, type TraceData } from '../../features/trace/trace-data.ts';
import type { WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

export interface TraceSlice {
  trace: TraceData;
  /** The span shown in the detail drawer. */
  traceSelected: string | null;
  /** Loads a thread's spans (`trace.list`). */
  loadTrace(threadId: string): Promise<void>;
  selectSpan(spanId: string | null): void;
  /** The export file's name and content, or null after a failure (shown in the banner). */
  exportTrace(
    threadId: string,
    format: 'otlp' | 'chrome',
  ): Promise<{ filename: string; content: string } | null>;
  /** Imports an OTLP JSON text into a new thread and opens it. */
  importTrace(content: string, name: string): Promise<void>;
  /** The stored hook run behind a hook span. */
  hookRunFor(threadId: string, spanId: string): Promise<HookRunRecord | null>;
}

/** Creates the trace slice. */
export const createTraceSlice: StateCreator<WorkbenchState, [], [], TraceSlice> = (set, get) => ({
  trace: EMPTY_TRACE,
  traceSelected: null,
  async loadTrace(threadId) {
    try {
      const spans = await call('trace.list', { threadId });
      set((s) => ({ trace: setThreadSpans(s.trace, threadId, spans) }));
    } catch (err) {
      get().setBanner(`Could not load the trace: ${errorMessage(err)}`);
    }
  },
  selectSpan: (traceSelected) => set({ traceSelected }),
  async exportTrace(threadId, format) {
    try {
      return await call('trace.export', { threadId, format });
    } catch (err) {
      get().setBanner(`Export failed: ${errorMessage(err)}`);
      return null;
    }
  },
  async importTrace(content, name) {
    try {
      const res = await call('trace.import', { content, name });
      // Opening the thread makes the panel load its spans.
      await get().refreshThreads();
      await get().openThread(res.threadId);
    } catch (err) {
      get().setBanner(`Import failed: ${errorMessage(err)}`);
    }
  },
  async hookRunFor(threadId, spanId) {
    try {
      return await call('trace.hookRun', { threadId, spanId });
    } catch {
      return null;
    }
  },
});
