/**
 * The skills middleware: discovers SKILL.md folders before the run, lets `read_file` read them
 * (read-only, even outside the workspace) and adds a one-line-per-skill catalog as a system block.
 * Progressive loading: the model reads a SKILL.md only when a task matches it — but the skills the
 * agent profile preloads (skills/preload.ts) join the system prompt whole.
 */
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';
import { loadSkills, type LoadSkillsResult } from '../skills/loader.ts';
import { renderCatalog } from '../skills/catalog.ts';
import { preloadedSkills } from '../skills/preload.ts';

export const skillsInfo: MiddlewareInfo = {
  name: 'skills',
  description: 'Adds the SKILL.md catalog to the system prompt',
  phases: ['before_agent', 'modify_request', 'after_agent'],
};

export interface SkillsHookOptions {
  home: string;
  /** agent.yaml `skills.paths`. */
  extraPaths?: readonly string[];
  /** Skill names switched off in settings. */
  disabled?: readonly string[];
  /** The run's skills when the pipeline loads them once for every part that needs them. */
  load?: () => Promise<LoadSkillsResult>;
  /** Skills the agent profile preloads whole (Claude Code's agent `skills: [name]`). */
  preload?: readonly string[];
}

/**
 * The skills hook.
 * Contract: a broken skill is a trace event, never a failure; without enabled skills the request is
 * passed through untouched; never mutates its input.
 */
export function createSkillsHook(opts: SkillsHookOptions): Hook {
  // Keyed by run: one hook instance could serve overlapping runs.
  const catalogs = new Map<string, string[]>();
  return {
    name: skillsInfo.name,
    source: 'builtin',
    description: skillsInfo.description,
    async beforeAgent(ctx) {
      const { skills, diagnostics } = await (opts.load?.() ?? loadSkills({ home: opts.home, workspace: ctx.workspace.root, extraPaths: opts.extraPaths, disabled: opts.disabled }));
      for (const skill of skills) if (skill.enabled) ctx.workspace.addReadRoot(skill.dir);
      for (const d of diagnostics) ctx.trace?.recordEvent('skill_diagnostic', { path: d.path, severity: d.severity, message: d.message });
      const preloaded = opts.preload?.length ? await preloadedSkills(skills, opts.preload, ctx.profile.name) : undefined;
      for (const message of preloaded?.problems ?? []) ctx.emit({ event: 'error', data: { message, code: 'diagnostic' } });
      catalogs.set(ctx.runId, [renderCatalog(skills), preloaded?.block ?? ''].filter(Boolean));
    },
    async modifyRequest(ctx, req) {
      const blocks = catalogs.get(ctx.runId);
      return blocks?.length ? { ...req, system: [...req.system, ...blocks] } : req;
    },
    async afterAgent(ctx) {
      catalogs.delete(ctx.runId);
    },
  };
}
