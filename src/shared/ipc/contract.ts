/**
 * The one IPC contract between the renderer and the core (docs/architecture.md): every channel is
 * `domain.verb`, takes one argument object (its zod schema is in schemas.ts) and resolves to an
 * `IpcResult` of the result type below. Electron IPC and the `serve` socket carry the same contract.
 */
import type { z } from 'zod';
import type {
  AgentState,
  ApprovalDecision,
  ElicitationRequestView,
  HookInfo,
  HookReplayRow,
  HookRunRecord,
  McpListing,
  SpanRecord,
  StreamEvent,
  ThreadSummary,
  Todo,
  ToolCall,
  WorkbenchSettings,
} from '../types/index.ts';
import type { CheckpointDiff, CheckpointView, RevertResultView } from '../types/checkpoints.ts';
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
  /** Electron: the trace can open in its own window. */
  canOpenWindows?: boolean;
}

export interface SettingsView {
  settings: WorkbenchSettings;
  /** Only whether a key exists: the key itself never reaches the renderer. */
  apiKeyConfigured: boolean;
  keyStorage: KeyStorage;
  /** A plain-language warning, e.g. Linux safeStorage falling back to basic_text. */
  keyWarning?: string;
  /** Base URL / model forced by the environment (serve), which override the settings. */
  envOverrides?: { baseURL?: string; model?: string };
  /** How commands run under these settings on this machine, e.g. `sandboxed (bubblewrap, no network)`. */
  sandboxStatus?: string;
  /**
   * Folders the agent works in besides the workspace (Claude Code's `additionalDirectories`), and
   * why any named there are left out; absent when the settings name none.
   */
  workingDirs?: { dirs: string[]; problems: string[] };
}

export interface ProviderPresetView {
  id: WorkbenchSettings['provider']['preset'];
  label: string;
  baseURL: string;
  local: boolean;
  needsKey: boolean;
}

/** `baseURL` is the endpoint actually tested; `fromEnvironment` when an environment override chose it. */
export type ConnectionResultView = (
  | { ok: true; models: number; modelIds: string[]; message: string }
  | { ok: false; message: string; modelIds?: string[] }
) & { baseURL?: string; fromEnvironment?: boolean };

export interface ProbeResultView {
  id: string;
  label: string;
  baseURL: string;
  ok: boolean;
  models?: string[];
}

export interface TrustItem {
  kind:
    | 'agents_md'
    | 'hooks'
    | 'claude_settings'
    | 'workbench_settings'
    | 'skills'
    | 'system_prompt'
    | 'memory_paths'
    | 'skills_paths'
    | 'mcp_servers'
    | 'http_tools'
    | 'frontmatter_hooks';
  path: string;
  /** What the item says (agent.yaml's system prompt's first lines, the paths it names); used only with trust. */
  detail?: string;
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

/** A recipe the composer offers as `/name` (docs/recipes.md). */
export interface RecipeSummary {
  name: string;
  description: string;
  argument_hint?: string;
  source: string;
}

export interface ThreadView {
  state: AgentState;
  summary: ThreadSummary;
  running: boolean;
  approvals: PendingApproval[];
  /** Elicitations still waiting for an answer (docs/tools.md#when-a-server-asks-you). */
  elicitations: ElicitationRequestView[];
  /** The child threads of the subagent runs this thread started (docs/agents.md). */
  children?: ThreadSummary[];
}

export interface MemoryDocument {
  scope: 'user' | 'workspace';
  path: string;
  content: string;
  /** versionOf(content); '' when the file does not exist yet (saving creates it). */
  version: string;
  exists: boolean;
}

/** A save refused because the file changed on disk since `baseVersion`: `document` is theirs. */
export type SaveResult<T> = { status: 'saved'; document: T } | { status: 'conflict'; document: T };

/** A file a memory file imports with `@path`, and what it imports in turn. */
export interface MemoryImportView {
  /** The reference as written after the `@`. */
  ref: string;
  path: string;
  exists: boolean;
  bytes: number;
  truncated: boolean;
  /** Why it was not read: outside the allowed folders, a cycle, too deep, already loaded. */
  refused?: string;
  imports?: MemoryImportView[];
}

export interface MemorySourceView {
  path: string;
  scope:
    'managed' | 'user' | 'parent' | 'workspace' | 'local' | 'extra' | 'working_dir' | 'subfolder';
  exists: boolean;
  bytes: number;
  truncated: boolean;
  /** Why an existing file was not read (it resolves outside the allowed folders, already loaded). */
  refused?: string;
  imports?: MemoryImportView[];
  /** A Claude Code rule's `paths` globs. */
  paths?: string[];
  /** A rule with `paths` no file the thread touched has matched yet: not in the text. */
  waiting?: boolean;
}

/** The "effective context": the exact system message of the last model request, and the memory now. */
export interface EffectiveContext {
  /** The system message last sent on `threadId`; null before the thread's first model call. */
  system: string | null;
  threadId?: string;
  model?: string;
  at?: number;
  estimatedTokens?: number;
  memory: { text: string; tokens: number; sources: MemorySourceView[] };
}

export type SkillSourceView =
  'workspace' | 'user' | 'claude' | 'claude-user' | 'kodelet' | 'kodelet-user' | 'plugin' | 'extra';

export interface SkillView {
  name: string;
  description: string;
  /** SKILL.md (real path). */
  path: string;
  dir: string;
  source: SkillSourceView;
  enabled: boolean;
  /** False for `disable-model-invocation: true`: not in the model's catalog, only the user invokes it. */
  modelInvocable: boolean;
  /** The frontmatter's `allowed-tools`, shown as not enforced yet. */
  allowedTools?: string[];
  /** The line the model sees in the catalog. */
  catalogLine: string;
}

export interface SkillDiagnosticView {
  path: string;
  severity: 'error' | 'warning';
  message: string;
}

export interface SkillListing {
  skills: SkillView[];
  diagnostics: SkillDiagnosticView[];
  roots: Array<{ source: SkillSourceView; dir: string }>;
}

export interface SkillFile {
  path: string;
  content: string;
  version: string;
}

/** An agent profile as the Agents panel and `workbench agents list` show it (docs/agents.md). */
export interface AgentView {
  name: string;
  description: string;
  source: 'agent.yaml' | 'workspace' | 'claude-project' | 'user' | 'claude-user';
  path: string;
  /** A workspace profile of an untrusted workspace: listed, never run. */
  inert: boolean;
  model?: string;
  tools?: string[];
  max_iterations?: number;
  /** The profile's script hooks file, when it names one. */
  script?: string;
}

export interface AgentListing {
  agents: AgentView[];
  diagnostics: string[];
}

/** A profile file and what the main process found wrong with it. */
export interface AgentFile {
  path: string;
  content: string;
  version: string;
  diagnostics: string[];
  script?: string;
}

/** A profile's script hooks file as the Agents panel edits it (docs/agents.md). */
export interface AgentScript {
  /** The profile that names it. */
  name: string;
  path: string;
  content: string;
  /** Version token of `content` for the conflict check on save. */
  version: string;
  /** True when the script will not run as things are: a workspace script of an untrusted workspace. */
  inert: boolean;
}

export type AgentScriptWrite = { status: 'saved' | 'conflict'; script: AgentScript };

export type HookTemplateId =
  | 'audit-logger'
  | 'guardrail'
  | 'follow-up'
  | 'persistent-shell'
  | 'persistent-python'
  | 'persistent-node';

/** The script file of one executable hook, as the hooks panel edits it. */
export interface HookScript {
  id: string;
  path: string;
  content: string;
  /** Version token of `content` for the conflict check on save. */
  version: string;
}

/** A script save: written, or refused because the file changed since it was read (`script` is the disk). */
export type HookScriptWrite = { status: 'saved' | 'conflict'; script: HookScript };

export interface HookListing {
  /** Every hook in pipeline order (built-ins with the user hooks in place of `user-hooks`). */
  hooks: HookInfo[];
  disableAllHooks: boolean;
  workspace: string;
  trusted: boolean;
  templates: Array<{ id: HookTemplateId; label: string; event: string }>;
  /** The events each user-hook format can take (the test pane's event choice). */
  events: { executable: string[]; claude: string[] };
}

/** One `hooks.test` run: the process result and how the workbench read it (as `workbench hooks test`). */
export interface HookTestResult {
  id: string;
  event: string;
  payload: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  error?: string;
  decision: string;
  reason?: string;
  readError?: string;
  /** `block — Security policy: …`, as the CLI prints it after "read as:". */
  readAs: string;
}

/** Result types by channel. */
export interface InvokeResults {
  'app.info': AppInfo;
  'app.openTraceWindow': { opened: boolean };
  'threads.list': ThreadSummary[];
  'threads.get': ThreadView;
  'threads.create': ThreadSummary;
  'threads.rename': ThreadSummary;
  'threads.delete': { deleted: true };
  'chat.send': { threadId: string; runId: string };
  'chat.cancel': { cancelled: boolean };
  'chat.approve': { accepted: boolean; decision: ApprovalDecision };
  /** `accepted` false with `error` when the answer does not fit the form (the form stays). */
  'chat.answerElicitation': { accepted: boolean; error?: string };
  'chat.running': string[];
  'chat.resume': { threadId: string; runId: string };
  'threads.setMetadata': Record<string, string>;
  'recipes.list': RecipeSummary[];
  'workspace.current': { path: string; recent: string[] };
  'workspace.open': { path: string; recent: string[] } | null;
  'workspace.recent': string[];
  'trust.status': TrustStatus;
  'trust.set': TrustStatus;
  'mcp.list': McpListing;
  'mcp.set': McpListing;
  'mcp.restart': McpListing;
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
  'trace.hookRun': HookRunRecord | null;
  'memory.read': MemoryDocument;
  'memory.write': SaveResult<MemoryDocument>;
  'memory.effective': EffectiveContext;
  'agents.list': AgentListing;
  'agents.read': AgentFile;
  'agents.validate': { diagnostics: string[]; name?: string; script?: string };
  'agents.save': SaveResult<AgentFile>;
  'agents.readScript': AgentScript;
  'agents.writeScript': AgentScriptWrite;
  'agents.createScript': { profile: AgentFile; script: AgentScript };
  'skills.list': SkillListing;
  'skills.read': SkillFile;
  'skills.create': SkillView;
  'skills.save': SaveResult<SkillFile>;
  'skills.delete': { deleted: true };
  'skills.setEnabled': SkillView;
  'hooks.list': HookListing;
  'hooks.setEnabled': HookInfo;
  'hooks.update': HookInfo;
  'hooks.disableAll': HookListing;
  'hooks.runs': HookRunRecord[];
  'hooks.sample': { event: string; payload: string };
  'hooks.test': HookTestResult;
  'hooks.replay': HookReplayRow[];
  'hooks.create': HookInfo;
  'hooks.readScript': HookScript;
  'hooks.writeScript': HookScriptWrite;
  'threads.fork': ThreadSummary;
  'threads.compact': { compacted: boolean; before_tokens: number; after_tokens: number };
  'threads.context': ContextUsage;
  'checkpoints.list': CheckpointView[];
  'checkpoints.diff': CheckpointDiff[];
  'checkpoints.revert': RevertResultView;
  'checkpoints.proposed': CheckpointDiff | null;
  'workspace.files': string[];
}

/** How full a thread's context is (the composer's meter): estimated tokens of the window. */
export interface ContextUsage {
  used: number;
  window: number;
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
  invoke<C extends InvokeChannel>(
    channel: C,
    args: InvokeArgs<C>,
  ): Promise<IpcResult<InvokeResult<C>>>;
  on<E extends EventChannel>(channel: E, listener: (payload: EventPayloads[E]) => void): () => void;
}

/** The socket protocol of `workbench serve` (JSON text frames). */
export type SocketClientMessage = { id: number; channel: string; args: unknown };
export type SocketServerMessage =
  { id: number; result: IpcResult<unknown> } | { event: EventChannel; payload: unknown };
