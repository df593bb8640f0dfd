/**
 * Tool error kinds and retries (docs/tools.md#errors-and-retries): the policy of each tool (agent.yaml
 * `retries`, else the tool's own `maxAttempts`, else one attempt) and the wrapper that runs a call
 * under it. `retryable` uses an attempt and waits the backoff (or the wait the tool asked for);
 * `snooze` waits and retries without using one; `cancel` and `discard` stop at once.
 */
import { z } from 'zod';
import { ToolError, type Tool, type ToolErrorKind } from '../tools/types.ts';
import type { TraceRecorder } from '../tracing/types.ts';
import { isAbortError, sleep } from '../abort.ts';
import { errorMessage } from '../errors.ts';

/** Snoozes one call may take before it counts as a failure. */
export const MAX_SNOOZES = 5;
/** The longest wait a tool may ask for (snooze or Retry-After). */
export const MAX_DELAY_MS = 300_000;

export interface RetryPolicy {
  maxAttempts: number;
  /** Delay before retry n+1 is `initialMs * multiplier^(n-1)`, at most `maxMs`. */
  backoff: { initialMs: number; maxMs: number; multiplier: number };
  /** Fraction of each delay that is random (0 = none, 1 = anywhere between 0 and the delay). */
  jitter: number;
}

const DEFAULT_BACKOFF = { initialMs: 500, maxMs: 8_000, multiplier: 2 };

/** One `retries` entry of agent.yaml. */
export const retryRuleSchema = z
  .object({
    max_attempts: z.number().int().min(1).max(20),
    backoff: z.union([
      z.number().int().min(0),
      z
        .object({
          initial_ms: z.number().int().min(0),
          max_ms: z.number().int().min(0),
          multiplier: z.number().min(1),
        })
        .partial()
        .strict(),
    ]),
    jitter: z.union([z.boolean(), z.number().min(0).max(1)]),
  })
  .partial()
  .strict();
export type RetryRule = z.infer<typeof retryRuleSchema>;

/** agent.yaml `retries`: tool name (a trailing `*` matches a prefix, e.g. `mcp__github__*`) → rule. */
export const retriesSchema = z.record(z.string().min(1), retryRuleSchema);
export type RetryRules = z.infer<typeof retriesSchema>;

/** The rule for a tool: its exact name first, then the longest matching `prefix*` pattern. */
function ruleFor(rules: RetryRules, name: string): RetryRule | undefined {
  if (rules[name]) return rules[name];
  const prefixes = Object.keys(rules)
    .filter((k) => k.endsWith('*') && name.startsWith(k.slice(0, -1)))
    .sort((a, b) => b.length - a.length);
  return prefixes.length > 0 ? rules[prefixes[0]] : undefined;
}

/** The policy of a tool. Contract: without a rule, the tool's `maxAttempts` (default 1) and no jitter. */
export function retryPolicy(rules: RetryRules | undefined, tool: Tool): RetryPolicy {
  const rule = rules ? ruleFor(rules, tool.name) : undefined;
  const b = rule?.backoff;
  const backoff =
    typeof b === 'number'
      ? { ...DEFAULT_BACKOFF, initialMs: b }
      : {
          initialMs: b?.initial_ms ?? DEFAULT_BACKOFF.initialMs,
          maxMs: b?.max_ms ?? DEFAULT_BACKOFF.maxMs,
          multiplier: b?.multiplier ?? DEFAULT_BACKOFF.multiplier,
        };
  const j = rule?.jitter;
  return {
    maxAttempts: Math.max(1, rule?.max_attempts ?? tool.maxAttempts ?? 1),
    backoff,
    jitter: j === true ? 0.5 : typeof j === 'number' ? j : 0,
  };
}

/** The wait before retry `attempt + 1`. Contract: within [delay·(1−jitter), delay]. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random = Math.random): number {
  const { initialMs, maxMs, multiplier } = policy.backoff;
  const delay = Math.min(initialMs * multiplier ** (attempt - 1), Math.max(maxMs, initialMs));
  return Math.round(delay * (1 - policy.jitter * random()));
}

/** How a call ended under its policy. */
export type AttemptsOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; message: string; kind: ToolErrorKind; attempts: number };

export interface RetryOptions {
  policy: RetryPolicy;
  signal: AbortSignal;
  trace?: TraceRecorder;
  /** Replaces the computed backoff (tests). */
  delayMs?: (attempt: number) => number;
  /** Told before each wait: the attempt about to run, why, and how long until it does. */
  onRetry?: (r: RetryNotice) => void;
}

/** One wait before a retry. */
export interface RetryNotice {
  attempt: number;
  maxAttempts: number;
  kind: 'retryable' | 'snooze';
  delayMs: number;
  error: string;
}

/**
 * Runs `attempt` until it succeeds or the policy gives up; each failure is a `tool_attempt_failed`
 * event on the current trace span, each wait a `tool_retry` event.
 * Contract: rejects only on abort (also during a wait); a failure is returned as data.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  opts: RetryOptions,
): Promise<AttemptsOutcome<T>> {
  const { policy, signal } = opts;
  let n = 1;
  let snoozes = 0;
  for (;;) {
    try {
      return { ok: true, value: await attempt(), attempts: n };
    } catch (err) {
      if (isAbortError(err) || signal.aborted) throw err;
      const message = errorMessage(err);
      const kind = err instanceof ToolError ? err.kind : 'retryable';
      const span = opts.trace?.currentSpan();
      span?.addEvent('tool_attempt_failed', {
        attempt: n,
        max_attempts: policy.maxAttempts,
        kind,
        message: message.slice(0, 500),
      });
      const asked = err instanceof ToolError ? err.delayMs : undefined;
      let delay: number;
      const snoozing = kind === 'snooze' && snoozes < MAX_SNOOZES;
      if (kind === 'cancel' || kind === 'discard') return { ok: false, message, kind, attempts: n };
      if (snoozing) {
        snoozes++;
        delay = Math.min(asked ?? 0, MAX_DELAY_MS);
      } else {
        if (n >= policy.maxAttempts) return { ok: false, message, kind, attempts: n };
        delay =
          asked !== undefined
            ? Math.min(asked, MAX_DELAY_MS)
            : (opts.delayMs?.(n) ?? backoffDelay(policy, n));
        n++;
      }
      span?.addEvent('tool_retry', { attempt: n, kind, delay_ms: delay });
      opts.onRetry?.({
        attempt: n,
        maxAttempts: policy.maxAttempts,
        kind: snoozing ? 'snooze' : 'retryable',
        delayMs: delay,
        error: message,
      });
      await sleep(delay, signal);
    }
  }
}
