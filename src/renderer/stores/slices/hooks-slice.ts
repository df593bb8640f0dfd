/** Hooks panel state: the pipeline listing, recent runs, the hook being tested, actions. */
import type { StateCreator } from 'zustand';
import type { HookListing, HookTemplateId, HookTestResult } from '../../../shared/ipc/contract.ts';
import type { HookReplayRow, HookRunRecord } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import type { WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

export interface HookTestState {
  id: string;
  event: string;
  payload: string;
  running: boolean;
  result: HookTestResult | null;
  error: string | null;
}

/** A replay of one hook over the workspace's recent threads (the rows say what it would have done). */
export interface HookReplayState {
  id: string;
  running: boolean;
  rows: HookReplayRow[] | null;
  error: string | null;
}

export interface HooksSlice {
  hookListing: HookListing | null;
  hookRuns: HookRunRecord[];
  hookTest: HookTestState | null;
  hookReplay: HookReplayState | null;
  hooksError: string | null;
  loadHooks(): Promise<void>;
  loadHookRuns(): Promise<void>;
  setHookEnabled(id: string, enabled: boolean): Promise<void>;
  updateHook(
    id: string,
    patch: { failMode?: 'open' | 'closed'; timeoutMs?: number },
  ): Promise<void>;
  setDisableAllHooks(disabled: boolean): Promise<void>;
  /** Opens the test pane of a hook with its sample payload (or closes it with null). */
  openHookTest(id: string | null, event?: string): Promise<void>;
  setHookTestPayload(payload: string): void;
  runHookTest(): Promise<void>;
  /** Replays a hook over the recent threads (or closes the replay with null). */
  replayHook(id: string | null): Promise<void>;
  createHook(scope: 'user' | 'workspace', name: string, template: HookTemplateId): Promise<boolean>;
  trustWorkspace(): Promise<void>;
  /** Shows a run's span in the Trace tab (its thread opened, the span selected). */
  openHookRunSpan(run: HookRunRecord): Promise<void>;
}

/** Creates the hooks slice. */
export const createHooksSlice: StateCreator<WorkbenchState, [], [], HooksSlice> = (set, get) => {
  const fail = (what: string) => (err: unknown) =>
    set({ hooksError: `${what}: ${errorMessage(err)}` });
  const guarded = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
      set({ hooksError: null });
    } catch (err) {
      fail(what)(err);
    }
  };
  return {
    hookListing: null,
    hookRuns: [],
    hookTest: null,
    hookReplay: null,
    hooksError: null,
    loadHooks: () =>
      guarded('Could not list hooks', async () =>
        set({ hookListing: await call('hooks.list', {}) }),
      ),
    loadHookRuns: () =>
      guarded('Could not load hook runs', async () =>
        set({ hookRuns: await call('hooks.runs', { limit: 5000 }) }),
      ),
    async setHookEnabled(id, enabled) {
      // Optimistic: the switch moves at once; the reload (also after a failure) tells the truth.
      set((s) =>
        s.hookListing
          ? {
              hookListing: {
                ...s.hookListing,
                hooks: s.hookListing.hooks.map((h) => (h.id === id ? { ...h, enabled } : h)),
              },
            }
          : {},
      );
      await guarded('Could not switch the hook', async () => {
        await call('hooks.setEnabled', { id, enabled });
      });
      await get().loadHooks();
    },
    updateHook: (id, patch) =>
      guarded('Could not update the hook', async () => {
        await call('hooks.update', { id, ...patch });
        await get().loadHooks();
      }),
    async setDisableAllHooks(disabled) {
      set((s) =>
        s.hookListing ? { hookListing: { ...s.hookListing, disableAllHooks: disabled } } : {},
      );
      await guarded('Could not switch user hooks', async () =>
        set({ hookListing: await call('hooks.disableAll', { disabled }) }),
      );
    },
    async openHookTest(id, event) {
      if (!id) return set({ hookTest: null });
      set({
        hookTest: {
          id,
          event: event ?? '',
          payload: '',
          running: false,
          result: null,
          error: null,
        },
      });
      try {
        const sample = await call('hooks.sample', event ? { id, event } : { id });
        set((s) =>
          s.hookTest?.id === id
            ? { hookTest: { ...s.hookTest, event: sample.event, payload: sample.payload } }
            : {},
        );
      } catch (err) {
        set((s) =>
          s.hookTest?.id === id ? { hookTest: { ...s.hookTest, error: errorMessage(err) } } : {},
        );
      }
    },
    setHookTestPayload: (payload) =>
      set((s) => (s.hookTest ? { hookTest: { ...s.hookTest, payload } } : {})),
    async runHookTest() {
      const t = get().hookTest;
      if (!t || t.running) return;
      set({ hookTest: { ...t, running: true, error: null, result: null } });
      try {
        const result = await call('hooks.test', {
          id: t.id,
          event: t.event || undefined,
          payload: t.payload || undefined,
        });
        set((s) =>
          s.hookTest?.id === t.id ? { hookTest: { ...s.hookTest, running: false, result } } : {},
        );
        await get().loadHookRuns();
      } catch (err) {
        set((s) =>
          s.hookTest?.id === t.id
            ? { hookTest: { ...s.hookTest, running: false, error: errorMessage(err) } }
            : {},
        );
      }
    },
    async replayHook(id) {
      if (!id) return set({ hookReplay: null });
      set({ hookReplay: { id, running: true, rows: null, error: null } });
      try {
        const rows = await call('hooks.replay', { id });
        set((s) =>
          s.hookReplay?.id === id ? { hookReplay: { ...s.hookReplay, running: false, rows } } : {},
        );
      } catch (err) {
        set((s) =>
          s.hookReplay?.id === id
            ? { hookReplay: { ...s.hookReplay, running: false, error: errorMessage(err) } }
            : {},
        );
      }
    },
    async createHook(scope, name, template) {
      try {
        await call('hooks.create', { scope, name, template });
        await get().loadHooks();
        set({ hooksError: null });
        return true;
      } catch (err) {
        fail('Could not create the hook')(err);
        return false;
      }
    },
    trustWorkspace: () =>
      guarded('Could not trust the workspace', async () => {
        const ws = get().hookListing?.workspace;
        if (!ws) return;
        await call('trust.set', { workspace: ws, trusted: true });
        await get().loadHooks();
      }),
    async openHookRunSpan(run) {
      if (!run.thread_id || !run.span_id) return;
      const s = get();
      if (s.activeThreadId !== run.thread_id) await s.openThread(run.thread_id);
      await get().loadTrace(run.thread_id);
      get().selectSpan(run.span_id);
      get().setDockTab('trace');
    },
  };
};
