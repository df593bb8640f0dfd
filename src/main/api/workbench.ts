/**
 * createWorkbench(): the one service object behind the CLI, `workbench serve` and the Electron app
 * (docs/architecture.md). Owns the database, settings, event bus, approvals and the runs in progress.
 */
import { homedir } from 'node:os';
import type { StreamEvent, WorkbenchSettings } from '../../shared/types/index.ts';
import { validateUserInput } from '../agent/messages.ts';
import { errorMessage, WorkbenchError } from '../errors.ts';
import { realDir } from '../fs/real-dir.ts';
import { ApprovalBroker, createHookConfirmation } from '../middleware/approval.ts';
import { EventBus } from './event-bus.ts';
import { sweepPlaceholders } from '../tools/sandbox/index.ts';
import { loadAgentProfile } from '../agents/profile.ts';
import { loadAgentRegistry, MAIN_AGENT } from '../agents/registry.ts';
import type { SubagentRequest, SubagentResult } from '../agents/subagent-types.ts';
import { DEFAULT_SUBAGENT_DEPTH, requireAgent, subagentResult, type LaunchSpec, type SubagentParent } from './launch-spec.ts';
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
import { endHookServers, endHookServersOf } from '../user-hooks/hook-server.ts';
import { endHookLauncher } from '../user-hooks/launcher/launcher.ts';
import { ElicitationBroker } from '../mcp/elicitation-broker.ts';
import { readClaudeSettingsFiles } from '../user-hooks/claude-config.ts';
import { bypassDisabledBy } from '../middleware/permission-rules.ts';
import { withClaudeSandbox } from '../middleware/claude-sandbox-settings.ts';
import { standaloneAgentRunner } from '../user-hooks/claude-agent-standalone.ts';
import { managerMcpRunner } from '../user-hooks/claude-mcp-tool.ts';
import type { HandlerRunner } from '../user-hooks/claude-hooks.ts';
import { createIdleNotifier } from './idle-notify.ts';
import { isInside } from '../tools/path-guard.ts';
import { checkWorkingDirs } from '../tools/working-dirs.ts';
import { registerSecret } from '../secrets/redaction.ts';
import { exporterFromSettings } from '../tracing/index.ts';
import { compactThreadNow } from '../middleware/summarization.ts';
import type { ThreadMemory } from '../middleware/memory.ts';
import { buildPipeline } from './build-pipeline.ts';
import { runPrograms } from './run-programs.ts';
import { recipeSnippetExpander } from './recipe-snippets.ts';
import { createMcpManager } from '../mcp/manager.ts';
import { createMcpService } from './panels/mcp-service.ts';
import { newRunId, startRun } from '../agent/run.ts';
import { SpanWriter } from '../tracing/span-writer.ts';
import { createHooksService } from './panels/hooks-service.ts';
import { createMemoryService } from './panels/memory-service.ts';
import { createSkillsService } from './panels/skills-service.ts';
import { createAgentsService } from './panels/agents-service.ts';
import type { PanelDeps } from './panels/panel-deps.ts';
import type { LastRequest, RunHandle, SendArgs, Workbench, WorkbenchOptions } from './types.ts';
import { createTraceService } from './panels/trace-service.ts';
import { createTrustService } from './panels/trust-service.ts';
import { createFeedService } from '../events/feed-service.ts';
import { resolveRecipe } from './recipe-send.ts';
import { workspaceInvocableSkills } from './invocable-skills.ts';
import { listRecipes } from '../recipes/loader.ts';
import { expandPrompt, promptRecipes } from '../mcp/prompt-recipes.ts';
import { compareStrings } from '../tools/glob.ts';
import type { ResumeArgs } from './types.ts';
import { createCheckpointService } from '../checkpoints/service.ts';
import { forkThread } from './thread-fork.ts';
import { estimateTokens } from '../agent/tokens.ts';

export async function createWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const home = opts.home;
  // Mount points a killed workbench's sandbox left in a workspace (tools/sandbox/placeholder-journal.ts).
  await sweepPlaceholders(home);
  const defaultWorkspace = await realDir(opts.workspace);
  const db = openDatabase(homePaths(home).db);
  // Spans left open by a crash of an earlier process are closed as incomplete.
  if (opts.closeStaleSpans !== false) db.spans.closeOpenSpans(Date.now());
  const spans = new SpanWriter(db.spans);
  spans.flushStandalone = () => db.transaction(() => spans.flush(), { deferSync: true });
  const settingsStore = createSettingsStore(home);
  const exporter = exporterFromSettings(settingsStore.get().tracing);
  const trust = createTrustStore(home);
  const bus = new EventBus();
  const broker = new ApprovalBroker();
  const confirm = createHookConfirmation(broker, opts.interactive !== false);
  const elicitations = new ElicitationBroker();
  const running = new Map<string, { controller: AbortController; handle: RunHandle }>();
  let apiKey = opts.apiKey;
  registerSecret(apiKey);
  const clients = new Map<string, LlmClient>();
  const lastRequests = new Map<string, LastRequest>();
  const threadMemory: ThreadMemory = new Map();
  const feed = createFeedService({
    db,
    webhooks: () => settingsStore.get().webhooks ?? [],
    subscribe: (l) => bus.subscribe(l),
    emit: (e) => bus.emit(e),
    follow: opts.followFeed === true,
    ownRuns: () => new Set([...running.values()].map((r) => r.handle.runId)),
  });
  const mcp = createMcpManager();
  const idle = createIdleNotifier({
    home,
    settings: () => settingsStore.get(),
    isTrusted: (dir) => trust.isTrusted(dir),
    exists: (threadId) => db.threads.summary(threadId) !== undefined,
    hookRuns: db.hookRuns,
    runner: () => handlerRunner(),
    delayMs: opts.idlePromptMs,
  });

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
      if (!args.recipe) validateUserInput([{ role: 'user', content: args.text }]);
    } catch {
      throw new WorkbenchError('invalid_args', 'message is empty');
    }
    return begin(args, false);
  }

  async function resume(args: ResumeArgs): Promise<RunHandle> {
    return begin({ ...args, text: '' }, true);
  }

  /** Deletes one thread, cancelling its run here; what the cancelled run writes as it ends goes too. */
  function removeThread(threadId: string): void {
    idle.cancel(threadId);
    const run = running.get(threadId);
    run?.controller.abort();
    const forget = () => {
      // Rows still buffered for the thread are written first, so that they are deleted too.
      feed.flush();
      db.hookRuns.flush?.();
      db.threads.delete(threadId);
    };
    forget();
    if (run) void run.handle.finished.finally(forget);
  }

  async function begin(args: SendArgs, resuming: boolean): Promise<RunHandle> {
    if (args.threadId) idle.cancel(args.threadId);
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
      return await startSend(args, resuming);
    } catch (err) {
      if (args.threadId) db.leases.release(args.threadId);
      throw err;
    }
  }

  /** A policy that switches off the mode asking nobody refuses a run in it, before any thread exists. */
  async function refuseIfBypassDisabled(workspaceRoot: string): Promise<void> {
    const by = bypassDisabledBy(await readClaudeSettingsFiles(workspaceRoot, home));
    if (by)
      throw new WorkbenchError(
        'forbidden',
        `the auto approval mode is switched off by "disableBypassPermissionsMode": "disable" in ${by}; run in ask or auto-edit mode`,
      );
  }

  /** The run's `--add-dir` folders, checked. Contract: throws WorkbenchError invalid_args naming each one refused. */
  function addedDirs(dirs: readonly string[] | undefined, workspaceRoot: string): string[] {
    if (!dirs?.length) return [];
    const requests = dirs.map((text) => ({ text, base: workspaceRoot, from: '--add-dir' }));
    const checked = checkWorkingDirs(requests, { workspace: workspaceRoot, home: homedir(), workbenchHome: home });
    if (checked.refused.length) throw new WorkbenchError('invalid_args', checked.refused.join('; '));
    return checked.dirs;
  }

  async function startSend(args: SendArgs, resuming: boolean): Promise<RunHandle> {
    // A process killed mid-command since the last run may have left sandbox mount points behind.
    await sweepPlaceholders(home);
    const workspaceRoot = args.threadId
      ? db.threads.summary(args.threadId)!.workspace
      : args.workspace
        ? await realDir(args.workspace)
        : defaultWorkspace;
    const stored = args.threadId ? db.threads.summary(args.threadId)?.agent : undefined;
    const agent = args.agent ?? stored ?? MAIN_AGENT;
    const trusted = Boolean(args.trust) || trust.isTrusted(workspaceRoot);
    // An unknown agent is refused before a thread is created for it.
    const registry = await loadAgentRegistry({ workspace: workspaceRoot, home, trusted });
    const entry = requireAgent(registry, agent);
    const settings = settingsStore.get();
    const approvalMode = args.approvalMode ?? settings.approval_mode;
    if (approvalMode === 'auto') await refuseIfBypassDisabled(workspaceRoot);
    const addDirs = addedDirs(args.addDirs, workspaceRoot);
    const state = db.threads.loadOrCreate(args.threadId, workspaceRoot);
    if (agent !== (stored ?? MAIN_AGENT)) db.threads.setLineage(state.thread_id, { agent });
    if (resuming) {
      // The dead process may have left its run marked running; it is over now.
      feed.rescue(new Set([...running.values()].map((r) => r.handle.runId)));
      const last = state.messages.at(-1);
      if (!last || (last.role === 'assistant' && !last.tool_calls?.length))
        throw new WorkbenchError('conflict', `thread ${state.thread_id} has nothing to resume`);
    }
    const recipe = resuming
      ? undefined
      : await resolveRecipe(args, { workspace: workspaceRoot, home, trusted }, {
          async mcpPrompt(name, typed) {
            // An MCP prompt starts the workspace's servers, as the run would.
            const { connections } = await mcp.servers({ workspace: workspaceRoot, home, settings, trusted });
            const live = connections.filter((c) => c.status().status === 'connected');
            return expandPrompt(live, name, typed);
          },
          snippets: recipeSnippetExpander({ workspace: workspaceRoot, home, settings, trusted }),
          skills: () => workspaceInvocableSkills({ workspace: workspaceRoot, home, settings, trusted, extraPaths: entry.profile.skills.paths, addDirs }),
          sessionId: state.thread_id,
        });
    const handle = await launch({
      state,
      text: recipe?.text ?? args.text,
      metadata: { ...args.metadata, ...(recipe ? { recipe_name: recipe.name } : {}), ...(recipe?.source.startsWith('skill') ? { skill_name: recipe.name } : {}) },
      recipe: recipe?.name,
      recipeCall: recipe && { name: recipe.name, args: recipe.args, source: recipe.source },
      resume: resuming,
      registry,
      entry,
      trusted,
      model: args.model ?? opts.model ?? entry.profile.model ?? settings.provider.model,
      approvalMode,
      noHooks: Boolean(args.noHooks) || settings.disableAllHooks,
      maxIterations: args.maxIterations ?? entry.profile.max_iterations ?? settings.max_iterations,
      controller: new AbortController(),
      leased: Boolean(args.threadId),
      addDirs,
    });
    // The run over, the thread waits for its user: `idle_prompt` if nobody writes for a minute.
    if (!args.noHooks) void handle.finished.finally(() => idle.ended(handle.threadId, workspaceRoot));
    return handle;
  }

  /** One run of an agent profile on a thread: the pipeline, the run, and its place in `running`. */
  async function launch(l: LaunchSpec): Promise<RunHandle> {
    const { state, registry, entry } = l;
    const settings = settingsStore.get();
    const workspaceRoot = db.threads.summary(state.thread_id)!.workspace;
    const profile = entry.profile;
    const depth = l.parent?.depth ?? 0;
    const pipeline = await buildPipeline({
      workspace: workspaceRoot,
      depth,
      home,
      settings,
      profile,
      trusted: l.trusted,
      noHooks: l.noHooks,
      approvalMode: l.approvalMode,
      interactive: opts.interactive !== false,
      broker,
      db,
      hookRuns: db.hookRuns,
      threadMemory,
      subagents: registry.subagents().map((a) => ({ name: a.name, description: a.description })),
      mcp,
      env: opts.env,
      addDirs: l.addDirs,
    });
    const programs = runPrograms({ processes: pipeline.processes, servers: () => mcp.started(workspaceRoot), workspace: workspaceRoot, home: homedir() });
    const workspace = await createWorkspace(workspaceRoot, { allowHardLinks: settings.allow_hard_links, extraRoots: pipeline.workingDirs, programs, writableRoots: pipeline.agentMemoryDir ? [pipeline.agentMemoryDir] : [] });
    const runId = newRunId();
    // Problems are reported once, by the run the user started.
    if (depth === 0) {
      for (const message of [...registry.diagnostics, ...pipeline.diagnostics]) {
        bus.emit({ event: 'error', run_id: runId, thread_id: state.thread_id, data: { message, code: 'diagnostic' } });
      }
    }
    const maxDepth = registry.get(MAIN_AGENT)?.profile.max_subagent_depth ?? settings.max_subagent_depth ?? DEFAULT_SUBAGENT_DEPTH;
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
        text: l.text,
        workspace,
        model: l.model,
        llm: llmFor(settings),
        settings: withClaudeSandbox(settings, pipeline.claudeSandbox),
        profile,
        hooks: pipeline.hooks,
        toolEnv: pipeline.commandEnv,
        trusted: l.trusted,
        approvalMode: l.approvalMode,
        maxIterations: l.maxIterations,
        controller: l.controller,
        // Claude Code's `denyInsteadOfPrompting`: a hook's `ask` is refused as with nobody to ask.
        askUser: pipeline.denyInsteadOfPromptingBy ? undefined : confirm,
        elicitPerson: opts.interactive !== false ? (ctx, ask, id) => elicitations.ask(ctx, ask, id) : undefined,
        params: l.params,
        parent: l.parent,
        runSubagent:
          depth < maxDepth
            ? (ctx, request) =>
                runSubagent(
                  { ctx, registry, trusted: l.trusted, approvalMode: l.approvalMode, noHooks: l.noHooks },
                  request,
                )
            : undefined,
        metadata: l.metadata,
        recipe: l.recipe,
        recipeCall: l.recipeCall,
        resume: l.resume,
      },
      runId,
    );
    if (!l.leased) db.leases.acquire(state.thread_id);
    running.set(state.thread_id, { controller: l.controller, handle });
    void handle.finished.finally(() => {
      running.delete(state.thread_id);
      db.leases.release(state.thread_id);
    });
    return handle;
  }

  /** `ctx.runSubagent`: the profile on a fresh child thread, cancelled with its parent (docs/agents.md). */
  async function runSubagent(p: SubagentParent, request: SubagentRequest): Promise<SubagentResult> {
    const { ctx } = p;
    const entry = p.registry.get(request.agent);
    const workspaceRoot = ctx.workspace.root;
    const state = db.threads.loadOrCreate(undefined, workspaceRoot);
    db.threads.setLineage(state.thread_id, {
      agent: request.agent,
      parent_thread_id: ctx.threadId,
      parent_tool_call_id: request.parentToolCallId,
    });
    const threadId = state.thread_id;
    if (!entry) return { content: '', threadId, status: 'error', error: `unknown agent "${request.agent}"` };
    if (request.description) db.threads.setTitle(threadId, `${request.agent}: ${request.description}`);
    const opening = request.messages.slice(0, -1);
    if (opening.length) db.threads.appendMessages(threadId, opening);
    const controller = new AbortController();
    const stop = () => controller.abort();
    ctx.signal.addEventListener('abort', stop, { once: true });
    if (ctx.signal.aborted) stop();
    const settings = settingsStore.get();
    const { temperature, max_tokens, max_completion_tokens } = request.options ?? {};
    try {
      const handle = await launch({
        state,
        text: request.messages.at(-1)?.content ?? '',
        registry: p.registry,
        entry,
        trusted: p.trusted,
        model: entry.profile.model ?? ctx.model,
        approvalMode: p.approvalMode,
        noHooks: p.noHooks,
        maxIterations: entry.profile.max_iterations ?? settings.max_iterations,
        controller,
        leased: false,
        addDirs: ctx.workspace.extraRoots,
        params: {
          ...(temperature !== undefined ? { temperature } : {}),
          ...((max_tokens ?? max_completion_tokens) !== undefined ? { max_tokens: max_tokens ?? max_completion_tokens } : {}),
        },
        parent: {
          depth: (ctx.depth ?? 0) + 1,
          threadId: ctx.threadId,
          toolCallId: request.parentToolCallId,
          span: ctx.trace?.currentSpan(),
        },
      });
      return subagentResult(threadId, await handle.finished, db.threads.get(threadId));
    } catch (err) {
      return { content: '', threadId, status: 'error', error: errorMessage(err) };
    } finally {
      ctx.signal.removeEventListener('abort', stop);
    }
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

  /** What a Claude handler that runs no process needs outside a run (the panel's Test, idle_prompt). */
  function handlerRunner(): HandlerRunner {
    const settings = settingsStore.get();
    const model = { llm: llmFor(settings), model: opts.model ?? settings.provider.model };
    return {
      variables: opts.env,
      model,
      mcp: async (workspaceRoot) =>
        managerMcpRunner(
          mcp,
          { workspace: workspaceRoot, home, settings, trusted: trust.isTrusted(workspaceRoot) },
          await createWorkspace(workspaceRoot, { allowHardLinks: settings.allow_hard_links }),
        ),
      agent: (workspaceRoot) =>
        standaloneAgentRunner({ ...model, home, workspaceRoot, allowHardLinks: settings.allow_hard_links }),
    };
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
    memoryFolders: (threadId) => [...(threadMemory.get(threadId)?.folders ?? [])],
    memoryRules: (threadId) => [...(threadMemory.get(threadId)?.rules ?? [])],
    handlerRunner,
  };

  return {
    home,
    workspace: defaultWorkspace,
    threads: {
      list: (a) => db.threads.list(a),
      children: (a) => db.threads.children(a.threadId),
      setMetadata: (a) => {
        if (!db.threads.summary(a.threadId))
          throw new WorkbenchError('not_found', `unknown thread ${a.threadId}`);
        const patch: Record<string, string | null> = { ...a.set };
        for (const key of a.remove ?? []) patch[key] = null;
        const metadata = db.threads.mergeMetadata(a.threadId, patch);
        feed.add({ type: 'metadata_changed', thread_id: a.threadId, run_id: null, data: { metadata } });
        return metadata;
      },
      runs: (a) => db.runs.forThread(a.threadId),
      get: (a) => db.threads.get(a.threadId),
      summary: (a) => db.threads.summary(a.threadId),
      create: (a) => {
        const state = db.threads.loadOrCreate(undefined, a?.workspace ?? defaultWorkspace);
        if (a?.title) db.threads.setTitle(state.thread_id, a.title);
        return db.threads.summary(state.thread_id)!;
      },
      rename: (a) => db.threads.setTitle(a.threadId, a.title),
      delete: (a: { threadId: string }) => {
        // A subagent's child threads go with their parent; none may be running in another process.
        const family = (id: string): string[] => [
          ...db.threads.children(id).flatMap((c) => family(c.thread_id)),
          id,
        ];
        const ids = family(a.threadId);
        for (const id of ids) {
          const holder = db.leases.heldElsewhere(id);
          if (holder)
            throw new WorkbenchError(
              'conflict',
              `thread ${id} is running in another workbench process (pid ${holder.pid}); stop that run first`,
            );
        }
        for (const id of ids) removeThread(id);
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
      resume,
      cancel: (a) => {
        const run = running.get(a.threadId);
        if (!run) return false;
        run.controller.abort();
        return true;
      },
      approve: (a) => broker.answer(a.approvalId, a.decision),
      pendingApprovals: (a) => broker.pendingFor(a.threadId),
      answerElicitation: (a) =>
        elicitations.answer(a.elicitationId, { action: a.action, ...(a.content ? { content: a.content } : {}) }),
      pendingElicitations: (a) => elicitations.pendingFor(a.threadId),
      running: () => [...running.keys()],
    },
    settings: {
      get: () => settingsStore.get(),
      update: (patch) => settingsStore.update(patch as SettingsPatch),
    },
    inspect: {
      lastRequest: (a) => lastRequests.get(a.threadId),
    },
    recipes: {
      list: async (a) => {
        const workspace = a?.workspace ?? defaultWorkspace;
        const trusted = trust.isTrusted(workspace);
        const settings = settingsStore.get();
        const summary = ({ name, description, argument_hint }: { name: string; description: string; argument_hint?: string }, source: string) => ({
          name,
          description,
          source,
          ...(argument_hint ? { argument_hint } : {}),
        });
        // As in Claude Code a skill wins over a recipe of the same name.
        const skills = (await workspaceInvocableSkills({ workspace, home, settings, trusted })).map((s) => summary(s, 'skill'));
        const named = new Set(skills.map((s) => s.name));
        const recipes = (await listRecipes({ workspace, home, trusted }))
          .filter((r) => !named.has(r.name))
          .map((r) => summary(r, r.source));
        const files = [...skills, ...recipes];
        // The prompts of servers already running (listing never starts one); a file of the same name wins.
        const taken = new Set(files.map((r) => r.name));
        const prompts = promptRecipes(mcp.connected(workspace)).filter((p) => !taken.has(p.name));
        return [...files, ...prompts].sort((x, y) => compareStrings(x.name, y.name));
      },
    },
    memory: createMemoryService(panelDeps),
    skills: createSkillsService(panelDeps),
    agents: createAgentsService(panelDeps),
    hooks: createHooksService(panelDeps),
    // A workspace's own hook servers and MCP servers stop at once, not only from its next run on.
    trust: createTrustService(
      trust,
      async (dirs) => {
        endHookServersOf((hookFile) => dirs.some((dir) => isInside(hookFile, dir)));
        await Promise.all(dirs.map((dir) => mcp.stopWorkspaceServers(dir)));
      },
      home,
    ),
    mcp: createMcpService({ ...panelDeps, mcp, workspace: defaultWorkspace }),
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
      await idle.close();
      await Promise.allSettled([...running.values()].map((r) => r.handle.finished));
      // The database's close below checkpoints the WAL with an fsync.
      db.transaction(() => spans.flush(), { deferSync: true });
      db.hookRuns.flush?.();
      await feed.close();
      await exporter?.shutdown();
      await endHookServers();
      await endHookLauncher();
      await endHookLeftovers();
      await mcp.close();
      db.close();
    },
  };
}
