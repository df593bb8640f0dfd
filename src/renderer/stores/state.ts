/** The renderer store's full shape; each slice contributes a part. */
import type { AppInfo, InvokeResult, ProviderPresetView, SettingsView, TrustStatus } from '../../shared/ipc/contract.ts';
import type { ApprovalDecision, ApprovalMode, ElicitAnswer, ThreadSummary } from '../../shared/types/index.ts';
import type { ConnectionState } from '../ipc/socket-bridge.ts';
import type { ChatData } from './chat-types.ts';
import type { TraceSlice } from './slices/trace-slice.ts';
import type { MemorySlice } from './slices/memory-slice.ts';
import type { SkillsSlice } from './slices/skills-slice.ts';
import type { HooksSlice } from './slices/hooks-slice.ts';

export type DockTab = 'todos' | 'trace' | 'changes' | 'memory' | 'skills' | 'agents' | 'hooks' | 'settings';

export interface ChatSlice {
  chat: ChatData;
  activeThreadId: string | null;
  openThread(threadId: string | null): Promise<void>;
  reloadThread(threadId: string): Promise<void>;
  /**
   * Sends `text` on the active thread (queued while a run goes). Contract: resolves false when the
   * send was refused; the thread's `failedSend` then holds the text and the reason.
   */
  send(text: string, options?: SendOptions): Promise<boolean>;
  /**
   * Retries a send that got no answer. When the thread already holds that very message unanswered
   * (the model call failed after it was stored), the thread resumes and the model answers it: the
   * message is not stored twice. Otherwise `text` is sent. Resolves as `send` does.
   */
  retry(text: string, options?: SendOptions): Promise<boolean>;
  /** Forgets a thread's failed send (the user retried, edited or dismissed it). */
  clearFailure(threadId: string): void;
  /** Forks the active thread before message `index` and sends `text` there (edit-and-resend, regenerate). */
  resendFrom(index: number, text: string): Promise<void>;
  /** Continues a thread whose last run was interrupted (docs/events.md#run-rescue). */
  resume(threadId: string): Promise<void>;
  cancel(): Promise<void>;
  approve(approvalId: string, decision: ApprovalDecision): Promise<void>;
  /**
   * Answers an MCP server's question (docs/tools.md#when-a-server-asks-you). Contract: never rejects;
   * a refused answer or a failed call resolves `{ accepted: false, error }` and the question stays.
   */
  answerElicitation(elicitationId: string, answer: ElicitAnswer): Promise<InvokeResult<'chat.answerElicitation'>>;
  /** Sends the next queued message of a thread whose run ended. */
  drainQueue(threadId: string): Promise<void>;
}

/** The composer's pickers: the model and approval mode of one send. */
export interface SendOptions {
  model?: string;
  approvalMode?: ApprovalMode;
  /** Sets the thread's agent profile (docs/agents.md). */
  agent?: string;
}

export interface SidebarSlice {
  threads: ThreadSummary[];
  search: string;
  workspace: { path: string; recent: string[] };
  setSearch(search: string): void;
  refreshThreads(): Promise<void>;
  openWorkspace(path?: string): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
}

export interface UiSlice {
  app: AppInfo | null;
  connection: ConnectionState | 'bridge';
  /** Failed socket attempts in a row (a restarted server has a new token). */
  connectFailures: number;
  dockTab: DockTab;
  dockOpen: boolean;
  /** A short message shown in the banner (last failed call). */
  banner: string | null;
  trustPrompt: TrustStatus | null;
  /** True once start-up (app info, trust check, threads, settings) has finished. */
  ready: boolean;
  searchFocus: number;
  setDockTab(tab: DockTab): void;
  toggleDock(): void;
  setBanner(text: string | null): void;
  focusSearch(): void;
  setTrustPrompt(t: TrustStatus | null): void;
}

export interface SettingsSlice {
  settings: SettingsView | null;
  presets: ProviderPresetView[];
  onboarding: boolean;
  loadSettings(): Promise<void>;
  setSettings(view: SettingsView): void;
  setOnboarding(open: boolean): void;
}

export type WorkbenchState = ChatSlice & SidebarSlice & UiSlice & SettingsSlice & TraceSlice & MemorySlice & SkillsSlice & HooksSlice;
