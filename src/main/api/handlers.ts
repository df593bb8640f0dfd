/**
 * The pure handler table: contract channel → Workbench call. No electron here; the Electron adapter
 * and the `serve` socket both call `dispatch()`, which checks the channel, parses the arguments with
 * the channel's zod schema and turns thrown errors into `IpcResult` data.
 */
import { endpointInUse, withModelCheck } from './endpoint-in-use.ts';
import { describeRunSandbox, detectSandbox, type SandboxAvailability } from '../tools/sandbox/index.ts';
import { runSandboxSettings } from '../middleware/claude-sandbox-settings.ts';
import { workspaceWorkingDirs } from '../middleware/claude-working-dirs.ts';
import { readClaudeSettingsFiles } from '../user-hooks/claude-config.ts';
import type { z } from 'zod';
import type { StreamEvent, WorkbenchSettings } from '../../shared/types/index.ts';
import { ARG_SCHEMAS, type ArgSchemas } from '../../shared/ipc/schemas.ts';
import { isInvokeChannel, type InvokeChannel } from '../../shared/ipc/channels.ts';
import type {
  AgentEventEnvelope,
  AppMode,
  EventPayloads,
  InvokeResult,
  KeyStorage,
  PendingApproval,
  SettingsView,
} from '../../shared/ipc/contract.ts';
import { fail, ok, type IpcResult } from '../../shared/ipc/result.ts';
import { errorMessage, WorkbenchError } from '../errors.ts';
import { realDir } from '../fs/real-dir.ts';
import { homePaths } from '../store/paths.ts';
import type { Workbench } from './types.ts';
import { deskHandlers } from './desk-handlers.ts';

/** Where the face keeps the API key (safeStorage in the app; env / secrets.json in serve). */
export interface SecretPort {
  get(): string | undefined;
  set(apiKey: string | null): Promise<void>;
  storage(): KeyStorage;
  warning?(): string | undefined;
}

/** The provider functions of src/main/llm/providers.ts (injectable for tests). */
export interface ProvidersPort {
  presets(): InvokeResult<'providers.presets'>;
  listModels(o: { baseURL: string; apiKey?: string }): Promise<string[]>;
  testConnection(o: { baseURL: string; apiKey?: string }): Promise<InvokeResult<'providers.test'>>;
  probe(): Promise<InvokeResult<'providers.probe'>>;
  normalize(url: string): string;
}

export interface HandlerDeps {
  workbench: Workbench;
  mode: AppMode;
  version: string;
  secrets: SecretPort;
  /** Electron's folder dialog; absent in serve (the path is typed instead). */
  pickFolder?: () => Promise<string | undefined>;
  /** Electron's own trace window for a thread; absent in serve (the renderer's full view is used). */
  openTraceWindow?: (threadId: string) => Promise<void>;
  /** Base URL / model set by the environment (serve), overriding settings. */
  envOverrides?: { baseURL?: string; model?: string };
  providers?: ProvidersPort;
  platform?: string;
}

type Parsed<C extends InvokeChannel> = z.output<ArgSchemas[C]>;

/** One handler per channel; may throw WorkbenchError for expected failures. */
export type InvokeHandlers = {
  [C in InvokeChannel]: (args: Parsed<C>) => Promise<InvokeResult<C>> | InvokeResult<C>;
};

async function defaultProviders(): Promise<ProvidersPort> {
  const p = await import('../llm/providers.ts');
  return {
    presets: () => p.PROVIDER_PRESETS.map((x) => ({ ...x })),
    listModels: (o) => p.listModels(o),
    testConnection: (o) => p.testConnection(o),
    probe: () => p.probeLocalProviders(),
    normalize: (u) => p.normalizeBaseUrl(u),
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin.replace('//localhost', '//127.0.0.1');
  } catch {
    return url;
  }
}

/** Builds the handler table over one Workbench. */
export function createHandlers(deps: HandlerDeps): InvokeHandlers {
  const wb = deps.workbench;
  let current = wb.workspace;
  let providers: ProvidersPort | undefined = deps.providers;
  const getProviders = async () => (providers ??= await defaultProviders());
  const sandboxAvailability: Promise<SandboxAvailability> = detectSandbox({ memoFile: homePaths(wb.home).sandboxProbe });

  /**
   * What Claude Code's settings make of runs in the current workspace, its files read once: how
   * commands run (the `sandbox` block, as a run goes by it) and the working directories besides it.
   */
  const workspaceView = async (settings: WorkbenchSettings): Promise<Pick<SettingsView, 'sandboxStatus' | 'workingDirs'>> => {
    const where = { workspace: current, trusted: wb.trust.isTrusted(current) };
    const claudeSettings = await readClaudeSettingsFiles(current, wb.home);
    const run = await runSandboxSettings(settings, { ...where, home: wb.home, claudeSettings });
    const found = await workspaceWorkingDirs({ ...where, workbenchHome: wb.home, claudeSettings });
    return {
      sandboxStatus: describeRunSandbox(run, await sandboxAvailability),
      workingDirs: found.dirs.length || found.diagnostics.length ? { dirs: found.dirs, problems: found.diagnostics } : undefined,
    };
  };

  const settingsView = async (settings: WorkbenchSettings = wb.settings.get()): Promise<SettingsView> => ({
    settings,
    apiKeyConfigured: Boolean(deps.secrets.get()) || wb.credentials.hasApiKey(),
    keyStorage: deps.secrets.storage(),
    keyWarning: deps.secrets.warning?.(),
    envOverrides: deps.envOverrides,
    ...(await workspaceView(settings)),
  });

  // The stored key goes only to the endpoint it was configured for: a new origin gets none, so
  // pointing the base URL at another server cannot leak it.
  const keyFor = (baseURL: string, typed?: string): string | undefined => {
    if (typed) return typed;
    const configured = deps.envOverrides?.baseURL ?? wb.settings.get().provider.base_url;
    return originOf(configured) === originOf(baseURL) ? deps.secrets.get() : undefined;
  };

  const remember = async (path: string): Promise<string[]> => {
    const recent = [path, ...wb.settings.get().recent_workspaces.filter((p) => p !== path)].slice(
      0,
      10,
    );
    await wb.settings.update({ recent_workspaces: recent });
    return recent;
  };

  const threadOrThrow = (threadId: string) => {
    const summary = wb.threads.summary({ threadId });
    const state = wb.threads.get({ threadId });
    if (!summary || !state) throw new WorkbenchError('not_found', `unknown thread ${threadId}`);
    return { summary, state };
  };

  return {
    'app.info': () => ({
      version: deps.version,
      mode: deps.mode,
      platform: deps.platform ?? 'unknown',
      home: wb.home,
      workspace: current,
      canPickFolder: Boolean(deps.pickFolder),
      canOpenWindows: Boolean(deps.openTraceWindow),
    }),
    'app.openTraceWindow': async (a) => {
      if (!deps.openTraceWindow) return { opened: false };
      threadOrThrow(a.threadId);
      await deps.openTraceWindow(a.threadId);
      return { opened: true };
    },
    'threads.list': (a) => wb.threads.list({ workspace: a.workspace, search: a.search }),
    'threads.get': (a) => {
      const { summary, state } = threadOrThrow(a.threadId);
      const running = wb.chat.running().includes(a.threadId);
      // Approvals still waiting, so a reloaded page shows the prompt again.
      const approvals: PendingApproval[] = running
        ? wb.chat.pendingApprovals({ threadId: a.threadId })
        : [];
      const elicitations = running ? wb.chat.pendingElicitations({ threadId: a.threadId }) : [];
      return {
        summary,
        state,
        running,
        approvals,
        elicitations,
        children: wb.threads.children({ threadId: a.threadId }),
      };
    },
    'threads.create': (a) =>
      wb.threads.create({ workspace: a.workspace ?? current, title: a.title }),
    'threads.rename': (a) => {
      threadOrThrow(a.threadId);
      wb.threads.rename({ threadId: a.threadId, title: a.title });
      return wb.threads.summary({ threadId: a.threadId })!;
    },
    'threads.delete': (a) => {
      threadOrThrow(a.threadId);
      wb.threads.delete({ threadId: a.threadId });
      return { deleted: true as const };
    },
    'chat.send': async (a) => {
      const handle = await wb.chat.send({
        threadId: a.threadId,
        text: a.text,
        model: a.model,
        approvalMode: a.approvalMode,
        workspace: a.threadId ? undefined : (a.workspace ?? current),
        agent: a.agent,
      });
      return { threadId: handle.threadId, runId: handle.runId };
    },
    'chat.cancel': (a) => ({ cancelled: wb.chat.cancel({ threadId: a.threadId }) }),
    'chat.approve': (a) => ({
      accepted: wb.chat.approve({ approvalId: a.approvalId, decision: a.decision }),
      decision: a.decision,
    }),
    'chat.answerElicitation': (a) =>
      wb.chat.answerElicitation({ elicitationId: a.elicitationId, action: a.action, content: a.content }),
    'chat.running': () => wb.chat.running(),
    'chat.resume': async (a) => {
      threadOrThrow(a.threadId);
      const handle = await wb.chat.resume({
        threadId: a.threadId,
        model: a.model,
        approvalMode: a.approvalMode,
        agent: a.agent,
      });
      return { threadId: handle.threadId, runId: handle.runId };
    },
    'threads.setMetadata': (a) =>
      wb.threads.setMetadata({ threadId: a.threadId, set: a.set, remove: a.remove }),
    'recipes.list': () => wb.recipes.list({ workspace: current }),
    'workspace.current': () => ({ path: current, recent: wb.settings.get().recent_workspaces }),
    'workspace.open': async (a) => {
      const chosen = a.path ?? (await deps.pickFolder?.());
      if (!chosen) {
        if (!deps.pickFolder) throw new WorkbenchError('invalid_args', 'type the folder path');
        return null;
      }
      current = await realDir(chosen);
      return { path: current, recent: await remember(current) };
    },
    'workspace.recent': () => wb.settings.get().recent_workspaces,
    'trust.status': (a) => wb.trust.status(a),
    'trust.set': (a) => wb.trust.set(a),
    'mcp.list': (a) => wb.mcp.list(a),
    'mcp.set': (a) => wb.mcp.set(a),
    'mcp.restart': (a) => wb.mcp.restart(a),
    'settings.get': () => settingsView(),
    'settings.update': async (a) => {
      const patch: Partial<WorkbenchSettings> = {};
      const { provider, ...rest } = a.patch;
      Object.assign(patch, rest);
      if (provider) {
        const base = wb.settings.get().provider;
        const merged = { ...base, ...provider };
        if (provider.base_url !== undefined)
          merged.base_url = (await getProviders()).normalize(provider.base_url);
        patch.provider = merged;
      }
      try {
        return settingsView(await wb.settings.update(patch));
      } catch (err) {
        if (err instanceof WorkbenchError) throw err;
        throw new WorkbenchError('invalid_args', errorMessage(err));
      }
    },
    'settings.setApiKey': async (a) => {
      const key = a.apiKey?.trim() || null;
      await deps.secrets.set(key);
      // Removing a typed key falls back to the environment's key, if any.
      wb.credentials.setApiKey({ apiKey: deps.secrets.get() });
      return settingsView();
    },
    'providers.presets': async () => (await getProviders()).presets(),
    'providers.models': async (a) => {
      const p = await getProviders();
      const { baseURL } = endpointInUse(a, deps.envOverrides);
      try {
        return await p.listModels({ baseURL, apiKey: keyFor(baseURL, a.apiKey) });
      } catch (err) {
        throw new WorkbenchError('unavailable', errorMessage(err));
      }
    },
    'providers.test': async (a) => {
      const endpoint = endpointInUse(a, deps.envOverrides);
      const result = await (await getProviders()).testConnection({
        baseURL: endpoint.baseURL,
        apiKey: keyFor(endpoint.baseURL, a.apiKey),
      });
      return withModelCheck(result, endpoint);
    },
    'providers.probe': async () => (await getProviders()).probe(),
    'todos.get': (a) => threadOrThrow(a.threadId).state.todos,
    'trace.list': (a) => wb.trace.list(a),
    'trace.export': (a) => wb.trace.export(a),
    'trace.import': (a) => wb.trace.import(a),
    'trace.hookRun': (a) => wb.trace.hookRun(a),
    'memory.read': (a) => wb.memory.read({ ...a, workspace: current }),
    'memory.write': (a) => wb.memory.write({ ...a, workspace: current }),
    'memory.effective': (a) => wb.memory.effective({ ...a, workspace: current }),
    'agents.list': () => wb.agents.list({ workspace: current }),
    'agents.read': (a) => wb.agents.read({ ...a, workspace: current }),
    'agents.validate': (a) => wb.agents.validate(a),
    'agents.save': (a) => wb.agents.save({ ...a, workspace: current }),
    'agents.readScript': (a) => wb.agents.readScript({ ...a, workspace: current }),
    'agents.writeScript': (a) => wb.agents.writeScript({ ...a, workspace: current }),
    'agents.createScript': (a) => wb.agents.createScript({ ...a, workspace: current }),
    'skills.list': () => wb.skills.list({ workspace: current }),
    'skills.read': (a) => wb.skills.read({ ...a, workspace: current }),
    'skills.create': (a) => wb.skills.create({ ...a, workspace: current }),
    'skills.save': (a) => wb.skills.save({ ...a, workspace: current }),
    'skills.delete': (a) => wb.skills.delete({ ...a, workspace: current }),
    'skills.setEnabled': (a) => wb.skills.setEnabled({ ...a, workspace: current }),
    'hooks.list': () => wb.hooks.list({ workspace: current }),
    'hooks.setEnabled': (a) => wb.hooks.setEnabled({ ...a, workspace: current }),
    'hooks.update': (a) => wb.hooks.update({ ...a, workspace: current }),
    'hooks.disableAll': (a) => wb.hooks.disableAll({ ...a, workspace: current }),
    'hooks.runs': (a) => wb.hooks.runs(a),
    'hooks.sample': (a) => wb.hooks.sample({ ...a, workspace: current }),
    'hooks.test': (a) => wb.hooks.test({ ...a, workspace: current }),
    'hooks.replay': (a) => wb.hooks.replay({ ...a, workspace: current }),
    'hooks.create': (a) => wb.hooks.create({ ...a, workspace: current }),
    'hooks.readScript': (a) => wb.hooks.readScript({ ...a, workspace: current }),
    'hooks.writeScript': (a) => wb.hooks.writeScript({ ...a, workspace: current }),
    ...deskHandlers(wb, threadOrThrow, () => current),
  };
}

/**
 * Validates and runs one call.
 * Contract: never throws; an unknown channel or arguments failing the schema never reach a handler.
 */
export async function dispatch(
  handlers: InvokeHandlers,
  channel: unknown,
  args: unknown,
): Promise<IpcResult<unknown>> {
  if (!isInvokeChannel(channel))
    return fail(
      'unknown_channel',
      `unknown channel ${JSON.stringify(String(channel)).slice(0, 120)}`,
    );
  const parsed = ARG_SCHEMAS[channel].safeParse(args === undefined ? {} : args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return fail('invalid_args', `${channel}: ${issue?.message ?? 'invalid arguments'}${where}`);
  }
  try {
    const handler = handlers[channel] as (a: unknown) => unknown;
    return ok(await handler(parsed.data));
  } catch (err) {
    if (err instanceof WorkbenchError) return fail(err.code, err.message);
    return fail('internal', errorMessage(err));
  }
}

/**
 * Forwards every Workbench StreamEvent to `send` as numbered `agent.event` envelopes.
 * Returns the unsubscribe function.
 */
export function forwardEvents(
  workbench: Workbench,
  send: <E extends keyof EventPayloads>(channel: E, payload: EventPayloads[E]) => void,
): () => void {
  let seq = 0;
  return workbench.subscribe((event: StreamEvent) => {
    const envelope: AgentEventEnvelope = { seq: ++seq, event };
    send('agent.event', envelope);
  });
}
