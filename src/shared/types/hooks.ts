/** What the hooks panel and `workbench hooks list` show about each hook in the pipeline. */
export type HookSource = 'builtin' | 'workspace' | 'user' | 'claude-settings' | 'plugin';
export type HookDialect = 'builtin' | 'executable' | 'claude' | 'script';
export type FailMode = 'open' | 'closed';

export interface HookInfo {
  /** Stable id: `builtin:tracing`, `executable:workspace:guard`, `claude:<file>#PreToolUse/0/0`. */
  id: string;
  name: string;
  source: HookSource;
  dialect: HookDialect;
  /** Phase(s) for built-ins, event for user hooks. */
  events: string[];
  matcher?: string;
  /** A Claude Code handler's `if` (a permission rule such as `Bash(git *)`): the calls it runs for. */
  condition?: string;
  /** A handler of an agent's frontmatter: it runs only in that agent's runs. */
  agent?: string;
  /** A handler of a skill's frontmatter: it runs once the skill was read in the thread. */
  skill?: string;
  /** A skill's `once: true` handler: it runs at most once in a thread. */
  once?: boolean;
  enabled: boolean;
  trusted: boolean;
  path?: string;
  command?: string;
  timeout_ms?: number;
  fail_mode?: FailMode;
  /** The user hook runs in the command sandbox (it opted in). */
  sandboxed?: boolean;
  /** An executable hook served by one long-lived process (docs/hooks.md#persistent-hooks). */
  persistent?: boolean;
  problem?: string;
  /** How its last runs ended (user hooks only; replays never count). */
  health?: HookHealth;
}

/** How one run of a hook ended: read fine, failed (error, unreadable output, could not start), timed out. */
export type HookOutcome = 'ok' | 'error' | 'timeout';

export interface HookHealth {
  /** Newest first, at most HOOK_HEALTH_RUNS. */
  last: HookOutcome[];
  /** The error of the newest failed run among `last`. */
  last_error?: string;
}

/** What a hook would have done to one recorded tool call (`hooks.replay`; its answer is never applied). */
export interface HookReplayRow {
  thread_id: string;
  tool_call_id: string;
  tool: string;
  args: Record<string, unknown>;
  verdict: 'allow' | 'block' | 'rewrite' | 'error';
  reason?: string;
}

/** One stored execution of a user hook (`hook_runs`). */
export interface HookRunRecord {
  id: number;
  hook_id: string;
  hook_name: string;
  event: string;
  thread_id?: string;
  run_id?: string;
  span_id?: string;
  started_at: number;
  duration_ms: number;
  payload: string;
  stdout: string;
  stderr: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  decision: string;
  reason?: string;
  error?: string;
}
