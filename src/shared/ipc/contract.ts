/**
 * The one IPC contract between the renderer and the core (CONVENTIONS §2.3): every channel is
 * `domain.verb`, takes one argument object (its zod schema is in schemas.ts) and resolves to an
 * `IpcResult` of the result type below. Electron IPC and the `serve` socket carry the same contract.
 */
import type { z } from 'zod';
import type {
  AgentState,
  ApprovalDecision,
  HookInfo,
  HookRunRecord,
  SpanRecord,
  StreamEvent,
  ThreadSummary,
  Todo,
  ToolCall,
  WorkbenchSettings,
} from '../types/index.ts';
import type { ArgSchemas } from './schemas.ts';
import type { EventChannel, InvokeChannel } from './channels.ts';
import type { IpcResult } from './result.ts';

export type { EventChannel, InvokeChannel } from './channels.ts';
export type { IpcResult, IpcError, IpcErrorCode } from './result.ts';

/** Which face serves the renderer; decides e.g. whether a folder dialog exists. */
export type AppMode = 'electron' | 'serve';

/** Where the API key lives, shown in Settings. */
export type KeyStorage = 'safe-storage' | 'basic-text' | 'env' | 'server-file' | 'memory' | 'none';

export interface AppInfo {
  version: string;
  mode: AppMode;
  platform: string;
  home: string;
  workspace: string;
  canPickFolder: boolean;
}

export interface SettingsView {
  settings: WorkbenchSettings;
  /** Only whether a key exists: the key itself never reaches the renderer (T1.11). */
  apiKeyConfigured: boolean;
  keyStorage: KeyStorage;
  /** A plain-language warning, e.g. Linux safeStorage falling back to basic_text. */
  keyWarning?: string;
  /** Base URL / model forced by the environment (serve), which override the settings. */
  envOverrides?: { baseURL?: string; model?: string };
}

export interface ProviderPresetView {
  id: WorkbenchSettings['provider']['preset'];
  label: string;
  baseURL: string;
  local: boolean;
  needsKey: boolean;
}

export type ConnectionResultView =
  | { ok: true; models: number; modelIds: string[]; message: string }
  | { ok: false; message: string };

export interface ProbeResultView {
  id: string;
  label: string;
  baseURL: string;
  ok: boolean;
  models?: string[];
}

export interface TrustItem {
  kind: 'agents_md' | 'hooks' | 'claude_settings' | 'workbench_settings' | 'skills';
  path: string;
}

export interface TrustStatus {
  workspace: string;
  trusted: boolean;
  /** What the folder brings; the trust prompt lists it. Empty → no prompt needed. */
  items: TrustItem[];
}

/** An approval prompt still waiting for an answer (so a reloaded page can show it again). */
export interface PendingApproval {
  approval_id: string;
  tool_call: ToolCall;
  kind: 'write' | 'execute';
  preview: string;
}

export interface ThreadView {
  state: AgentState;
  summary: ThreadSummary;
  running: boolean;
  approvals: PendingApproval[];
}

export interface MemoryDocument {
  scope: 'user' | 'workspace';
  path: string;
  content: string;
  version: string;
}

export interface SkillView {
  name: string;
  description: string;
  path: string;
  scope: 'user' | 'workspace';
  enabled: boolean;
}

/** Result types by channel. */
export interface InvokeResults {
  'app.info': AppInfo;
  'threads.list': ThreadSummary[];
  'threads.get': ThreadView;
  'threads.create': ThreadSummary;
  'threads.rename': ThreadSummary;
  'threads.delete': { deleted: true };
  'chat.send': { threadId: string; runId: string };
  'chat.cancel': { cancelled: boolean };
  'chat.approve': { accepted: boolean; decision: ApprovalDecision };
  'chat.running': string[];
  'workspace.current': { path: string; recent: string[] };
  'workspace.open': { path: string; recent: string[] } | null;
  'workspace.recent': string[];
  'trust.status': TrustStatus;
  'trust.set': TrustStatus;
  'settings.get': SettingsView;
  'settings.update': SettingsView;
  'settings.setApiKey': SettingsView;
  'providers.presets': ProviderPresetView[];
  'providers.models': string[];
  'providers.test': ConnectionResultView;
  'providers.probe': ProbeResultView[];
  'todos.get': Todo[];
  'trace.list': SpanRecord[];
  'trace.export': { filename: string; content: string };
  'trace.import': { threadId: string; spans: number };
  'memory.read': MemoryDocument;
  'memory.write': MemoryDocument;
  'memory.effective': { text: string; sources: string[] };
  'skills.list': { skills: SkillView[]; diagnostics: string[] };
  'skills.create': SkillView;
  'skills.save': SkillView;
  'skills.delete': { deleted: true };
  'skills.setEnabled': SkillView;
  'hooks.list': HookInfo[];
  'hooks.setEnabled': HookInfo;
  'hooks.runs': HookRunRecord[];
  'hooks.test': { ok: boolean; output: string; decision?: string };
  'hooks.create': HookInfo;
}

export type InvokeArgs<C extends InvokeChannel> = z.input<ArgSchemas[C]>;
export type InvokeResult<C extends InvokeChannel> = InvokeResults[C];

/** One StreamEvent as pushed to clients, numbered per connection so a gap can be noticed. */
export interface AgentEventEnvelope {
  seq: number;
  event: StreamEvent;
}

/** Menu / shortcut actions the Electron shell forwards to the renderer. */
export interface AppCommand {
  action: 'new_thread' | 'open_folder' | 'search_threads' | 'open_settings' | 'cancel_run';
}

export interface EventPayloads {
  'agent.event': AgentEventEnvelope;
  'app.command': AppCommand;
}

/** The bridge the renderer sees as `window.workbench` (preload) or builds over the socket. */
export interface WorkbenchBridge {
  invoke<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<IpcResult<InvokeResult<C>>>;
  on<E extends EventChannel>(channel: E, listener: (payload: EventPayloads[E]) => void): () => void;
}

/** The socket protocol of `workbench serve` (JSON text frames). */
export type SocketClientMessage = { id: number; channel: string; args: unknown };
export type SocketServerMessage =
  | { id: number; result: IpcResult<unknown> }
  | { event: EventChannel; payload: unknown };
  'trace.hookRun': HookRunRecord | null;
