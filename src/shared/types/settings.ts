/** `$WORKBENCH_HOME/settings.json`, written atomically. The API key is never stored here. */
import type { ApprovalMode } from './events.ts';

export interface ProviderSettings {
  preset: 'openai' | 'ollama' | 'lmstudio' | 'vllm' | 'llamacpp' | 'openrouter' | 'custom';
  base_url: string;
  model: string;
}

export interface HookOverride {
  enabled?: boolean;
  fail_mode?: 'open' | 'closed';
  timeout_ms?: number;
  /** Run this hook in the command sandbox (docs/hooks.md#sandboxing-a-hook). */
  sandbox?: boolean;
  /** An executable hook served by one long-lived process (docs/hooks.md#persistent-hooks). */
  persistent?: boolean;
}

/**
 * How `execute` runs commands (docs/tools.md#sandbox): `auto` sandboxes where the OS sandbox is
 * available, `required` refuses commands where it is not, `off` never sandboxes.
 */
export interface SandboxSettings {
  mode: 'auto' | 'required' | 'off';
  /** Whether sandboxed commands reach the network (default false). */
  network: boolean;
}

export interface WorkbenchSettings {
  provider: ProviderSettings;
  approval_mode: ApprovalMode;
  theme: 'light' | 'dark' | 'system';
  max_iterations: number;
  /** Tool calls of one turn that run at once; the rest wait their turn (results stay in call order). */
  max_parallel_tools: number;
  disableAllHooks: boolean;
  /** Per-hook overrides keyed by HookInfo.id (settings hooks toggled off, fail mode, timeout). */
  hook_overrides: Record<string, HookOverride>;
  tracing: { capture_content: boolean; otlp_endpoint?: string; otlp_headers?: Record<string, string> };
  recent_workspaces: string[];
  disabled_skills: string[];
  sandbox: SandboxSettings;
  /** Let file tools open a file that has other hard links (which may lie outside the workspace). */
  allow_hard_links: boolean;
}

export const DEFAULT_SETTINGS: WorkbenchSettings = {
  provider: { preset: 'openai', base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  approval_mode: 'ask',
  theme: 'system',
  max_iterations: 25,
  max_parallel_tools: 8,
  disableAllHooks: false,
  hook_overrides: {},
  tracing: { capture_content: false },
  recent_workspaces: [],
  disabled_skills: [],
  sandbox: { mode: 'auto', network: false },
  allow_hard_links: false,
};
