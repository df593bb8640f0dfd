/** The Workbench service for one CLI command, built from the environment and closed afterwards. */
import { resolve } from 'node:path';
import { createWorkbench } from '../api/workbench.ts';
import type { Workbench, WorkbenchOptions } from '../api/types.ts';
import { resolveHome } from '../store/paths.ts';
import type { CliIo } from './types.ts';

/**
 * Opens the Workbench of $WORKBENCH_HOME for `workspace` (default: the current folder), runs `fn`
 * and closes it. Model settings come from OPENAI_API_KEY, OPENAI_BASE_URL and WORKBENCH_MODEL unless
 * `overrides` sets them.
 * Contract: closes the Workbench whether `fn` resolves or rejects; starts no run of its own and
 * leaves spans other processes hold open alone.
 */
export async function withWorkbench<T>(
  io: CliIo,
  overrides: Partial<Omit<WorkbenchOptions, 'home'>>,
  fn: (wb: Workbench) => Promise<T> | T,
): Promise<T> {
  const set = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  const wb = await createWorkbench({
    home: resolveHome(io.env),
    apiKey: io.env.OPENAI_API_KEY || undefined,
    baseURL: io.env.OPENAI_BASE_URL || undefined,
    model: io.env.WORKBENCH_MODEL || undefined,
    interactive: false,
    closeStaleSpans: false,
    env: io.env,
    ...set,
    workspace: resolve(io.cwd, overrides.workspace ?? '.'),
  });
  try {
    return await fn(wb);
  } finally {
    await wb.close();
  }
}
