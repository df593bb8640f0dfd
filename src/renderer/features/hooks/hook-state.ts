/** How a hook's state reads in the panel (as `workbench hooks list` prints it). */
import type { HookInfo, HookRunRecord } from '../../../shared/types/index.ts';

export type HookState = 'on' | 'off' | 'untrusted' | 'problem';

/** The state badge of a hook; `allOff` is settings.disableAllHooks. */
export function hookState(h: HookInfo, allOff: boolean): HookState {
  if (!h.enabled || (allOff && h.dialect !== 'builtin')) return 'off';
  if (!h.trusted) return 'untrusted';
  return h.problem ? 'problem' : 'on';
}

/** A run's outcome in a few words: `exit 0`, `timeout`, `SIGKILL`. */
export function runOutcome(r: Pick<HookRunRecord, 'timed_out' | 'signal' | 'exit_code'>): string {
  if (r.timed_out) return 'timeout';
  if (r.signal) return r.signal;
  return `exit ${r.exit_code ?? '-'}`;
}

/** Whether a run failed (not the same as blocking: a block is a successful answer). */
export const runFailed = (r: Pick<HookRunRecord, 'error'>): boolean => Boolean(r.error);
