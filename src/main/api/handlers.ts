/**
 * The pure handler table: contract channel → Workbench call. No electron here; the Electron adapter
 * and the `serve` socket both call `dispatch()`, which checks the channel, parses the arguments with
 * the channel's zod schema and turns thrown errors into `IpcResult` data.
 */
import { realpath, stat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
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
  TrustItem,
  TrustStatus,
} from '../../shared/ipc/contract.ts';
import { fail, ok, type IpcErrorCode, type IpcResult } from '../../shared/ipc/result.ts';
import { createTrustStore } from '../user-hooks/trust-store.ts';
import type { Workbench } from './types.ts';

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
  /** Base URL / model set by the environment (serve), overriding settings. */
  envOverrides?: { baseURL?: string; model?: string };
  providers?: ProvidersPort;
  platform?: string;
}

type Parsed<C extends InvokeChannel> = z.output<ArgSchemas[C]>;

/** One handler per channel; may throw HandlerError (or a WorkbenchInputError) for expected failures. */
export type InvokeHandlers = {
  [C in InvokeChannel]: (args: Parsed<C>) => Promise<InvokeResult<C>> | InvokeResult<C>;
};

/** An expected failure a handler reports to the caller as `{ok:false, error}`. */
export class HandlerError extends Error {
  readonly code: IpcErrorCode;
  constructor(code: IpcErrorCode, message: string) {
    super(message);
    this.name = 'HandlerError';
    this.code = code;
  }
}

const KNOWN_CODES = new Set<string>(['invalid_args', 'not_found', 'conflict', 'forbidden', 'not_implemented', 'unavailable']);

/** The trace domain, or not_implemented for a Workbench without one. */
function traceOf(wb: Workbench): NonNullable<Workbench['trace']> {
  return wb.trace ?? notImplemented('trace');
}

function notImplemented(channel: string): never {
  throw new HandlerError('not_implemented', `${channel} is not available in this version`);
}

async function realDir(path: string): Promise<string> {
  try {
    const real = await realpath(path);
    if (!(await stat(real)).isDirectory()) throw new Error('not a folder');
    return real;
  } catch {
    throw new HandlerError('invalid_args', `not a folder: ${path}`);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Lists what a workspace brings that the trust prompt must show (hooks, settings hooks, AGENTS.md, skills). */
export async function inspectWorkspace(workspace: string): Promise<TrustItem[]> {
  const items: TrustItem[] = [];
  const candidates: Array<[TrustItem['kind'], string]> = [
    ['agents_md', join(workspace, 'AGENTS.md')],
    ['hooks', join(workspace, '.workbench', 'hooks')],
    ['workbench_settings', join(workspace, '.workbench', 'settings.json')],
    ['claude_settings', join(workspace, '.claude', 'settings.json')],
    ['skills', join(workspace, '.workbench', 'skills')],
  ];
  for (const [kind, path] of candidates) {
    if (!(await exists(path))) continue;
    if (kind === 'hooks' || kind === 'skills') {
      const names = await readdir(path).catch(() => [] as string[]);
      if (names.length === 0) continue;
    }
    items.push({ kind, path });
  }
  return items;
}

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

  const settingsView = (settings: WorkbenchSettings = wb.settings.get()): SettingsView => ({
    settings,
    apiKeyConfigured: Boolean(deps.secrets.get()) || wb.credentials.hasApiKey(),
    keyStorage: deps.secrets.storage(),
    keyWarning: deps.secrets.warning?.(),
    envOverrides: deps.envOverrides,
  });

  // The stored key goes only to the endpoint it was configured for (T7.4): a new origin gets none.
  const keyFor = (baseURL: string, typed?: string): string | undefined => {
    if (typed) return typed;
    const configured = deps.envOverrides?.baseURL ?? wb.settings.get().provider.base_url;
    return originOf(configured) === originOf(baseURL) ? deps.secrets.get() : undefined;
  };

  const remember = async (path: string): Promise<string[]> => {
    const recent = [path, ...wb.settings.get().recent_workspaces.filter((p) => p !== path)].slice(0, 10);
    await wb.settings.update({ recent_workspaces: recent });
    return recent;
  };

  const trust = createTrustStore(wb.home);
  const trustStatus = async (workspace: string): Promise<TrustStatus> => {
    const path = await realDir(workspace);
    return { workspace: path, trusted: trust.isTrusted(path), items: await inspectWorkspace(path) };
  };

  const threadOrThrow = (threadId: string) => {
    const summary = wb.threads.summary({ threadId });
    const state = wb.threads.get({ threadId });
    if (!summary || !state) throw new HandlerError('not_found', `unknown thread ${threadId}`);
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
    }),
    'threads.list': (a) => wb.threads.list({ workspace: a.workspace, search: a.search }),
    'threads.get': (a) => {
      const { summary, state } = threadOrThrow(a.threadId);
      const running = wb.chat.running().includes(a.threadId);
      // Approvals still waiting, so a reloaded page shows the prompt again.
      const approvals: PendingApproval[] = running ? wb.chat.pendingApprovals({ threadId: a.threadId }) : [];
      return { summary, state, running, approvals };
    },
    'threads.create': (a) => wb.threads.create({ workspace: a.workspace ?? current, title: a.title }),
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
      const handle = await wb.chat.send({ threadId: a.threadId, text: a.text, workspace: a.threadId ? undefined : (a.workspace ?? current) });
      return { threadId: handle.threadId, runId: handle.runId };
    },
    'chat.cancel': (a) => ({ cancelled: wb.chat.cancel({ threadId: a.threadId }) }),
    'chat.approve': (a) => ({ accepted: wb.chat.approve({ approvalId: a.approvalId, decision: a.decision }), decision: a.decision }),
    'chat.running': () => wb.chat.running(),
    'workspace.current': () => ({ path: current, recent: wb.settings.get().recent_workspaces }),
    'workspace.open': async (a) => {
      const chosen = a.path ?? (await deps.pickFolder?.());
      if (!chosen) {
        if (!deps.pickFolder) throw new HandlerError('invalid_args', 'type the folder path');
        return null;
      }
      current = await realDir(chosen);
      return { path: current, recent: await remember(current) };
    },
    'workspace.recent': () => wb.settings.get().recent_workspaces,
    'trust.status': (a) => trustStatus(a.workspace),
    'trust.set': async (a) => {
      const path = await realDir(a.workspace);
      if (a.trusted) await trust.trust(path);
      else await trust.untrust(path);
      return trustStatus(path);
    },
    'settings.get': () => settingsView(),
    'settings.update': async (a) => {
      const patch: Partial<WorkbenchSettings> = {};
      const { provider, ...rest } = a.patch;
      Object.assign(patch, rest);
      if (provider) {
        const base = wb.settings.get().provider;
        const merged = { ...base, ...provider };
        if (provider.base_url !== undefined) merged.base_url = (await getProviders()).normalize(provider.base_url);
        patch.provider = merged;
      }
      try {
        return settingsView(await wb.settings.update(patch));
      } catch (err) {
        if (err instanceof HandlerError) throw err;
        throw new HandlerError('invalid_args', err instanceof Error ? err.message : String(err));
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
      try {
        return await p.listModels({ baseURL: a.baseURL, apiKey: keyFor(a.baseURL, a.apiKey) });
      } catch (err) {
        throw new HandlerError('unavailable', err instanceof Error ? err.message : String(err));
      }
    },
    'providers.test': async (a) => (await getProviders()).testConnection({ baseURL: a.baseURL, apiKey: keyFor(a.baseURL, a.apiKey) }),
    'providers.probe': async () => (await getProviders()).probe(),
    'todos.get': (a) => threadOrThrow(a.threadId).state.todos,
    'trace.list': (a) => traceOf(wb).list(a),
    'trace.export': (a) => traceOf(wb).export(a),
    'trace.import': (a) => {
      try {
        return traceOf(wb).import(a);
      } catch (err) {
        throw new HandlerError('invalid_args', err instanceof Error ? err.message : String(err));
      }
    },
    'trace.hookRun': (a) => traceOf(wb).hookRun(a),
    'memory.read': (a) => (wb.memory ?? notImplemented('memory.read')).read({ ...a, workspace: current }),
    'memory.write': (a) => (wb.memory ?? notImplemented('memory.write')).write({ ...a, workspace: current }),
    'memory.effective': (a) => (wb.memory ?? notImplemented('memory.effective')).effective({ ...a, workspace: current }),
    'skills.list': () => (wb.skills ?? notImplemented('skills.list')).list({ workspace: current }),
    'skills.read': (a) => (wb.skills ?? notImplemented('skills.read')).read({ ...a, workspace: current }),
    'skills.create': (a) => (wb.skills ?? notImplemented('skills.create')).create({ ...a, workspace: current }),
    'skills.save': (a) => (wb.skills ?? notImplemented('skills.save')).save({ ...a, workspace: current }),
    'skills.delete': (a) => (wb.skills ?? notImplemented('skills.delete')).delete({ ...a, workspace: current }),
    'skills.setEnabled': (a) => (wb.skills ?? notImplemented('skills.setEnabled')).setEnabled({ ...a, workspace: current }),
    'hooks.list': () => (wb.hooks ?? notImplemented('hooks.list')).list({ workspace: current }),
    'hooks.setEnabled': (a) => (wb.hooks ?? notImplemented('hooks.setEnabled')).setEnabled({ ...a, workspace: current }),
    'hooks.update': (a) => (wb.hooks ?? notImplemented('hooks.update')).update({ ...a, workspace: current }),
    'hooks.disableAll': (a) => (wb.hooks ?? notImplemented('hooks.disableAll')).disableAll({ ...a, workspace: current }),
    'hooks.runs': (a) => (wb.hooks ?? notImplemented('hooks.runs')).runs(a),
    'hooks.sample': (a) => (wb.hooks ?? notImplemented('hooks.sample')).sample({ ...a, workspace: current }),
    'hooks.test': (a) => (wb.hooks ?? notImplemented('hooks.test')).test({ ...a, workspace: current }),
    'hooks.create': (a) => (wb.hooks ?? notImplemented('hooks.create')).create({ ...a, workspace: current }),
  };
}

/**
 * Validates and runs one call.
 * Contract: never throws; an unknown channel or arguments failing the schema never reach a handler.
 */
export async function dispatch(handlers: InvokeHandlers, channel: unknown, args: unknown): Promise<IpcResult<unknown>> {
  if (!isInvokeChannel(channel)) return fail('unknown_channel', `unknown channel ${JSON.stringify(String(channel)).slice(0, 120)}`);
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
    const code = (err as { code?: unknown })?.code;
    const message = err instanceof Error ? err.message : String(err);
    if (typeof code === 'string' && KNOWN_CODES.has(code)) return fail(code as IpcErrorCode, message);
    return fail('internal', message);
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
