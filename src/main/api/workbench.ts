/**
 * createWorkbench(): the one service object behind the CLI, `workbench serve` and the Electron app
 * (docs/architecture.md). Owns the database, settings, event bus, approvals and the runs in progress.
 */
import type { StreamEvent, WorkbenchSettings } from '../../shared/types/index.ts';
import { validateUserInput } from '../agent/messages.ts';
import { WorkbenchError } from '../errors.ts';
import { realDir } from '../fs/real-dir.ts';
import { ApprovalBroker, createHookConfirmation } from '../middleware/approval.ts';
import { EventBus } from './event-bus.ts';
import { loadAgentProfile } from '../agents/profile.ts';
import { createOpenAiClient } from '../llm/openai-client.ts';
import type { LlmClient } from '../llm/types.ts';
import {
  openDatabase,
  createSettingsStore,
  homePaths,
  type SettingsPatch,
} from '../store/index.ts';
import { createWorkspace } from '../tools/workspace.ts';
import { createTrustStore } from '../user-hooks/index.ts';
import { endHookLeftovers } from '../user-hooks/runner.ts';
import { registerSecret } from '../secrets/redaction.ts';
import { exporterFromSettings } from '../tracing/index.ts';
import { compactThreadNow } from '../middleware/summarization.ts';
import { buildPipeline } from './build-pipeline.ts';
import { newRunId, startRun } from '../agent/run.ts';
import { SpanWriter } from '../tracing/span-writer.ts';
import { createHooksService } from './panels/hooks-service.ts';
import { createMemoryService } from './panels/memory-service.ts';
import { createSkillsService } from './panels/skills-service.ts';
import type { PanelDeps } from './panels/panel-deps.ts';
import type { LastRequest, RunHandle, SendArgs, Workbench, WorkbenchOptions } from './types.ts';
import { createTraceService } from './panels/trace-service.ts';
import { createTrustService } from './panels/trust-service.ts';
import { createCheckpointService } from '../checkpoints/service.ts';
import { forkThread } from './thread-fork.ts';
import { estimateTokens } from '../agent/tokens.ts';

export async function createWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const home = opts.home;
  const defaultWorkspace = await realDir(opts.workspace);
  const db = openDatabase(homePaths(home).db);
  // Spans left open by a crash of an earlier process are closed as incomplete.
  if (opts.closeStaleSpans !== false) db.spans.closeOpenSpans(Date.now());
  const spans = new SpanWriter(db.spans);
  spans.flushStandalone = () => db.transaction(() => spans.flush());
  const settingsStore = createSettingsStore(home);
  const exporter = exporterFromSettings(settingsStore.get().tracing);
  const trust = createTrustStore(home);
  const bus = new EventBus();
  const broker = new ApprovalBroker();
  const confirm = createHookConfirmation(broker, opts.interactive !== false);
  const running = new Map<string, { controller: AbortController; handle: RunHandle }>();
  let apiKey = opts.apiKey;
  registerSecret(apiKey);
  const clients = new Map<string, LlmClient>();
  const lastRequests = new Map<string, LastRequest>();

  function llmFor(settings: WorkbenchSettings): LlmClient {
    if (opts.llm) return opts.llm;
    const baseURL = opts.baseURL ?? settings.provider.base_url;
    const key = `${baseURL}\n${apiKey ?? ''}`;
    let client = clients.get(key);
    if (!client) {
      client = createOpenAiClient({ apiKey: apiKey || 'not-needed', baseURL });
      clients.set(key, client);
    }
    return client;
  }

  async function send(args: SendArgs): Promise<RunHandle> {
    try {
      validateUserInput([{ role: 'user', content: args.text }]);
    } catch {
      throw new WorkbenchError('invalid_args', 'message is empty');
    }
    if (args.threadId && running.has(args.threadId)) {
      throw new WorkbenchError('conflict', 'a run is already in progress on this thread');
    }
    if (args.threadId && !db.threads.summary(args.threadId)) {
      throw new WorkbenchError('not_found', `unknown thread ${args.threadId}`);
    }
    if (args.threadId) {
      const holder = db.leases.acquire(args.threadId);
      if (holder)
        throw new WorkbenchError(
          'conflict',
          `thread ${args.threadId} is running in another workbench process (pid ${holder.pid})`,
        );
      // The other process may have written to the thread since this one cached it.
      db.threads.evictIfStale(args.threadId);
    }
    try {
      return await startSend(args);
    } catch (err) {
      if (args.threadId) db.leases.release(args.threadId);
      throw err;
    }
  }

  async function startSend(args: SendArgs): Promise<RunHandle> {
    const workspaceRoot = args.threadId
      ? db.threads.summary(args.threadId)!.workspace
      : args.workspace
        ? await realDir(args.workspace)
        : defaultWorkspace;
    const state = db.threads.loadOrCreate(args.threadId, workspaceRoot);
    const settings = settingsStore.get();
    const trusted = Boolean(args.trust) || trust.isTrusted(workspaceRoot);
    const { profile, diagnostics } = await loadAgentProfile(workspaceRoot, { trusted });
    const workspace = await createWorkspace(workspaceRoot, { allowHardLinks: settings.allow_hard_links });
    const model = args.model ?? opts.model ?? profile.model ?? settings.provider.model;
    const pipeline = await buildPipeline({
      workspace: workspaceRoot,
      home,
      settings,
      profile,
      trusted,
      noHooks: Boolean(args.noHooks) || settings.disableAllHooks,
      approvalMode: args.approvalMode ?? settings.approval_mode,
      interactive: opts.interactive !== false,
      broker,
      db,
      hookRuns: db.hookRuns,
    });
    const controller = new AbortController();
    const runId = newRunId();
    for (const message of [...diagnostics, ...pipeline.diagnostics]) {
      bus.emit({
        event: 'error',
        run_id: runId,
        thread_id: state.thread_id,
        data: { message, code: 'diagnostic' },
      });
    }
    const llm = llmFor(settings);
    const handle = startRun(
      {
        db,
        spans,
        exporter,
        emit: (e) => bus.emit(e),
        home,
        onRequest: (r) => lastRequests.set(r.thread_id, r),
      },
      {
        state,
        text: args.text,
        workspace,
        model,
        llm,
        settings,
        profile,
        hooks: pipeline.hooks,
        trusted,
        approvalMode: args.approvalMode ?? settings.approval_mode,
        maxIterations: args.maxIterations ?? settings.max_iterations,
        controller,
        askUser: confirm,
      },
      runId,
    );
    if (!args.threadId) db.leases.acquire(state.thread_id);
    running.set(state.thread_id, { controller, handle });
    void handle.finished.finally(() => {
      running.delete(state.thread_id);
      db.leases.release(state.thread_id);
    });
    return handle;
  }

  async function compact(a: { threadId: string; model?: string; signal?: AbortSignal }) {
    const state = db.threads.get(a.threadId);
    const summary = db.threads.summary(a.threadId);
    if (!state || !summary) throw new WorkbenchError('not_found', `unknown thread ${a.threadId}`);
    const settings = settingsStore.get();
    const { profile } = await loadAgentProfile(summary.workspace);
    return compactThreadNow({
      store: db.threads,
      llm: llmFor(settings),
      model: a.model ?? opts.model ?? profile.model ?? settings.provider.model,
      state,
      contextWindow: profile.context_window,
      compaction: profile.compaction,
      signal: a.signal,
    });
  }

  const panelDeps: PanelDeps = {
    home,
    settings: {
      get: () => settingsStore.get(),
      update: (patch) => settingsStore.update(patch as SettingsPatch),
    },
    trust,
    hookRuns: db.hookRuns,
    threads: db.threads,
    lastRequest: (threadId) => lastRequests.get(threadId),
  };

  return {
    home,
    workspace: defaultWorkspace,
    threads: {
      list: (a) => db.threads.list(a),
      get: (a) => db.threads.get(a.threadId),
      summary: (a) => db.threads.summary(a.threadId),
      create: (a) => {
        const state = db.threads.loadOrCreate(undefined, a?.workspace ?? defaultWorkspace);
        if (a?.title) db.threads.setTitle(state.thread_id, a.title);
        return db.threads.summary(state.thread_id)!;
      },
      rename: (a) => db.threads.setTitle(a.threadId, a.title),
      delete: (a) => {
        running.get(a.threadId)?.controller.abort();
        db.threads.delete(a.threadId);
      },
      compact,
      fork: (a) => forkThread(db.threads, (fn) => db.transaction(fn), a),
      context: async (a) => {
        const state = db.threads.get(a.threadId);
        const summary = db.threads.summary(a.threadId);
        if (!state || !summary) throw new WorkbenchError('not_found', `unknown thread ${a.threadId}`);
        const { profile } = await loadAgentProfile(summary.workspace);
        const last = lastRequests.get(a.threadId);
        return { used: last?.estimated_tokens ?? estimateTokens(state.messages), window: profile.context_window };
      },
    },
    chat: {
      send,
      cancel: (a) => {
        const run = running.get(a.threadId);
        if (!run) return false;
        run.controller.abort();
        return true;
      },
      approve: (a) => broker.answer(a.approvalId, a.decision),
      pendingApprovals: (a) => broker.pendingFor(a.threadId),
      running: () => [...running.keys()],
    },
    settings: {
      get: () => settingsStore.get(),
      update: (patch) => settingsStore.update(patch as SettingsPatch),
    },
    inspect: {
      lastRequest: (a) => lastRequests.get(a.threadId),
    },
    memory: createMemoryService(panelDeps),
    skills: createSkillsService(panelDeps),
    hooks: createHooksService(panelDeps),
    trust: createTrustService(trust),
    checkpoints: createCheckpointService({
      store: db.checkpoints,
      isRunning: (threadId) => running.has(threadId),
    }),
    trace: createTraceService({
      spans: db.spans,
      threads: db.threads,
      hookRuns: db.hookRuns,
      flush: () => db.transaction(() => spans.flush()),
      transaction: (fn) => db.transaction(fn),
      captureContent: () => settingsStore.get().tracing.capture_content,
      workspace: defaultWorkspace,
    }),
    credentials: {
      setApiKey: (a) => {
        apiKey = a.apiKey || undefined;
        registerSecret(apiKey);
        clients.clear();
      },
      hasApiKey: () => Boolean(apiKey),
    },
    subscribe: (listener: (event: StreamEvent) => void) => bus.subscribe(listener),
    async close() {
      for (const run of running.values()) run.controller.abort();
      await Promise.allSettled([...running.values()].map((r) => r.handle.finished));
      db.transaction(() => spans.flush());
      await exporter?.shutdown();
      await endHookLeftovers();
      db.close();
    },
  };
}
