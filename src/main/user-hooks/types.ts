/** Types shared by both user-hook dialects. */
import type { FailMode } from '../../shared/types/index.ts';

/** One runnable user hook (an executable or a Claude settings handler), as the Hook objects use it. */
export interface UserHookRef {
  id: string;
  name: string;
  event: string;
  failMode: FailMode;
  timeoutMs: number;
  /** Runs in the command sandbox (it opted in); fail-closed unless its override says otherwise. */
  sandbox?: boolean;
  /** An executable hook served by one long-lived `<hook> serve` process (docs/hooks.md#persistent-hooks). */
  persistent?: boolean;
  /** What the user is shown while it runs (a Claude handler's `statusMessage`). */
  statusMessage?: string;
}

/** How a hook run was read: the decision stored and traced. */
export interface HookReading {
  /** 'none' | 'block' | 'allow' | 'deny' | 'ask' | 'rewrite' | 'follow_up' | 'mutate' | 'callback' | 'context' | 'error' */
  decision: string;
  reason?: string;
  /** Set when the run failed (non-zero exit, timeout, bad JSON, too much output, could not start). */
  error?: string;
  /** Whether stdout held a valid JSON object; undefined when it was empty. */
  jsonValid?: boolean;
}
