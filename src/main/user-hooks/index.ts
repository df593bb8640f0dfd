/**
 * User hooks (ARCHITECTURE §3, issue #4): the seed dialect (executables) and the Claude Code dialect
 * (settings files) as pipeline Hooks, plus workspace trust. `createUserHooks` is called once per run,
 * so discovery (and every `.disable` rename or settings change) is fresh for each run.
 */
import type { HookInfo, WorkbenchSettings } from '../../shared/types/index.ts';
import type { Hook } from '../pipeline/hook.ts';
import type { HookRunStore } from '../store/types.ts';
import { isClaudeRunnable, loadClaudeHooks } from './claude-config.ts';
import { createClaudeHooks } from './claude-hooks.ts';
import { claudeInfo, seedInfo } from './list.ts';
import { discoverSeedHooks, isSeedRunnable } from './executable-discovery.ts';
import { createSeedHooks } from './executable-hooks.ts';

export { createTrustStore, realPathOf, type TrustStore, type TrustedWorkspace } from './trust-store.ts';
export { listUserHooks, pipelineOrder, type ListUserHooksOptions } from './list.ts';
export { setSeedHookEnabled, discoverSeedHooks, SEED_EVENTS, type SeedEvent, type SeedHookEntry } from './executable-discovery.ts';
export { loadClaudeHooks, CLAUDE_EVENTS, type ClaudeHandler } from './claude-config.ts';
export { runHookProcess, STDOUT_CAP_BYTES, STDERR_CAP_BYTES, type HookProcessResult, type HookProcessSpec } from './runner.ts';
export { transcriptPath } from './transcript.ts';

export interface CreateUserHooksOptions {
  workspace: string;
  home: string;
  settings: WorkbenchSettings;
  /** Workspace trusted (trust store or `--trust`): workspace-sourced hooks may run. */
  trusted: boolean;
  /** `--no-hooks`: no user hook runs (settings.disableAllHooks does the same). */
  noHooks?: boolean;
  hookRuns?: HookRunStore;
}

export interface UserHooks {
  /** At most two Hooks: `seed-hooks` then `claude-hooks`, each present only when it has something to run. */
  hooks: Hook[];
  /** Every user hook individually, including the ones that will not run (and why). */
  infos: HookInfo[];
  diagnostics: string[];
}

/**
 * Discovers the user hooks of both dialects and returns the pipeline Hooks for this run.
 * Contract: never rejects; with noHooks/disableAllHooks nothing is discovered by execution and
 * `hooks` is empty; workspace hooks are left out unless `trusted`.
 */
export async function createUserHooks(opts: CreateUserHooksOptions): Promise<UserHooks> {
  const off = Boolean(opts.noHooks) || opts.settings.disableAllHooks;
  // Off means off: not even `<hook> hook` runs. Still list the settings handlers (reading is harmless).
  const [seed, claude] = await Promise.all([
    off ? Promise.resolve([]) : discoverSeedHooks(opts),
    loadClaudeHooks(opts),
  ]);
  const infos = [...seed.map((e) => seedInfo(e, opts.settings)), ...claude.handlers.map((h) => claudeInfo(h, opts.settings))];
  const diagnostics = [...claude.diagnostics];
  for (const e of seed) if (e.problem && e.enabled && e.trusted) diagnostics.push(`hook ${e.path}: ${e.problem}`);
  const held = infos.filter((i) => !i.trusted && i.enabled).length;
  if (held && !off) {
    diagnostics.push(`${held} hook(s) of workspace ${opts.workspace} will not run until you trust it (workbench trust DIR, or --trust for one run)`);
  }
  if (off) return { hooks: [], infos: infos.map((i) => ({ ...i, enabled: false })), diagnostics };

  const hooks: Hook[] = [];
  // A seed hook is switched off by its `.disable` name, or (as a settings hook) by hook_overrides.
  const runnableSeed = seed.filter((e) => isSeedRunnable(e) && opts.settings.hook_overrides[e.id]?.enabled !== false);
  if (runnableSeed.length) {
    const source = runnableSeed.some((e) => e.scope === 'workspace') ? 'workspace' : 'user';
    hooks.push(createSeedHooks({ entries: runnableSeed, settings: opts.settings, hookRuns: opts.hookRuns }, source));
  }
  const runnableClaude = claude.handlers.filter(isClaudeRunnable);
  if (runnableClaude.length) {
    hooks.push(createClaudeHooks({ handlers: runnableClaude, settings: opts.settings, home: opts.home, hookRuns: opts.hookRuns }, 'claude-settings'));
  }
  return { hooks, infos, diagnostics };
}
