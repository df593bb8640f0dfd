/**
 * The `hooks` of skills' frontmatter (docs/skills.md#hooks), as Claude Code registers them: a skill's
 * handlers take part from the moment the skill is used — here, when its SKILL.md is read — for the
 * rest of the thread; `once: true` runs a handler at most once in it. A workspace skill's handlers
 * need the workspace trusted, as every workspace hook does.
 */
import { basename, resolve } from 'node:path';
import type { Message, ToolCall, WorkbenchSettings } from '../../shared/types/index.ts';
import { loadSkills, type Skill } from '../skills/loader.ts';
import { isInside } from '../tools/path-guard.ts';
import { callEffects } from '../tools/call-policy.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { HookRunStore } from '../store/types.ts';
import type { RecipeCall } from '../pipeline/hook.ts';
import { realPathOf } from './trust-store.ts';
import { workspaceWorkingDirs } from '../middleware/claude-working-dirs.ts';
import {
  loadClaudeHooks,
  type ClaudeHandler,
  type ReadSettingsFile,
  type SkillHooks,
} from './claude-config.ts';

/**
 * Of loaded skills, the enabled ones whose frontmatter has `hooks`, scoped by where they live: the
 * workspace's and its working directories' need the workspace trusted.
 */
export function hooksOfSkills(
  skills: readonly Skill[],
  workspace: string,
  workingDirs: readonly string[] = [],
): SkillHooks[] {
  const inWorkspace = (dir: string) =>
    isInside(dir, workspace) || workingDirs.some((d) => isInside(dir, d));
  return skills
    .filter((s) => s.enabled && s.frontmatter.hooks !== undefined)
    .map((s) => ({
      skill: s.name,
      file: s.path,
      scope: inWorkspace(s.dir) ? 'workspace' : 'user',
      hooks: s.frontmatter.hooks,
    }));
}

/**
 * The skills with hooks of a workspace and of the working directories its settings add (as a run
 * would read them, `trusted` or not), loaded here (listing, the trust prompt).
 */
export async function skillsWithHooks(o: {
  home: string;
  workspace: string;
  trusted: boolean;
  claudeSettings?: readonly ReadSettingsFile[];
  disabled?: readonly string[];
}): Promise<SkillHooks[]> {
  const { dirs } = await workspaceWorkingDirs({ ...o, workbenchHome: o.home });
  const { skills } = await loadSkills({ ...o, workingDirs: dirs });
  return hooksOfSkills(skills, o.workspace, dirs);
}

/** Every handler of every skill's frontmatter, problems included (the hooks panel, `workbench hooks list`). */
export async function skillHandlers(o: {
  workspace: string;
  home: string;
  settings: WorkbenchSettings;
  trusted: boolean;
  claudeSettings?: readonly ReadSettingsFile[];
}): Promise<ClaudeHandler[]> {
  const skills = await skillsWithHooks({ ...o, disabled: o.settings.disabled_skills });
  if (skills.length === 0) return [];
  const { handlers } = await loadClaudeHooks({ ...o, skills });
  return handlers.filter((h) => h.skill !== undefined);
}

/**
 * The skills (of `files`: SKILL.md path → skill) a call reads.
 * Contract: paths are taken from the tool's declared reads, resolved against the workspace.
 */
export function skillsReadBy(
  tools: ToolRegistry,
  call: ToolCall,
  root: string,
  files: ReadonlyMap<string, string>,
): string[] {
  const tool = tools.get(call.name);
  const reads = tool ? (callEffects(tool, call.args)?.reads ?? []) : [];
  return reads.flatMap((p) => {
    const path = resolve(root, p);
    // Only a file named SKILL.md can be one (no system call for every other read of a long thread).
    const skill = basename(path) === 'SKILL.md' ? files.get(realPathOf(path)) : undefined;
    return skill ? [skill] : [];
  });
}

/**
 * The skills a thread has used already: invoked by the user (`/name`, a user message's `skill_name`)
 * or their SKILL.md read by a call that succeeded.
 */
function skillsReadIn(
  messages: readonly Message[],
  tools: ToolRegistry,
  root: string,
  files: ReadonlyMap<string, string>,
): Set<string> {
  const names = new Set(files.values());
  const invoked = messages.flatMap((m) =>
    m.role === 'user' && m.metadata?.skill_name && names.has(m.metadata.skill_name)
      ? [m.metadata.skill_name]
      : [],
  );
  // A tool message stored before statuses were kept counts as a success.
  const ok = new Set(
    messages
      .filter((m) => m.role === 'tool' && (m.status ?? 'ok') === 'ok')
      .map((m) => m.tool_call_id),
  );
  const read = new Set<string>(invoked);
  for (const m of messages)
    for (const call of m.tool_calls ?? [])
      if (ok.has(call.id))
        for (const skill of skillsReadBy(tools, call, root, files)) read.add(skill);
  return read;
}

/** Which skill handlers take part in a run's events: those of skills read, `once` ones not yet run. */
export interface SkillHandlerGate {
  /** SKILL.md path → skill, for the skills that have handlers. */
  files: ReadonlyMap<string, string>;
  /** The run's read skills (undefined until its tools are registered: they tell what a call reads). */
  active(ctx: GateContext): Set<string> | undefined;
  takesPart(ctx: GateContext, h: ClaudeHandler): boolean;
  /** Marks a `once` handler as run in the thread. */
  ranOnce(ctx: GateContext, h: ClaudeHandler): void;
}

interface GateContext {
  runId: string;
  /** The skill or recipe the run's message invoked. */
  recipeCall?: RecipeCall;
  threadId: string;
  tools: ToolRegistry;
  workspace: { root: string };
  state: { messages: Message[] };
}

export function skillHandlerGate(
  handlers: readonly ClaudeHandler[],
  hookRuns?: HookRunStore,
): SkillHandlerGate {
  const files = new Map(handlers.flatMap((h) => (h.skill ? [[h.file, h.skill] as const] : [])));
  const read = new Map<string, Set<string>>();
  const ran = new Set<string>();
  const active = (ctx: GateContext) => {
    let set = read.get(ctx.runId);
    // The thread's earlier reads count (a skill stays in use for the rest of the thread).
    if (!set && ctx.tools.list().length > 0) {
      read.set(
        ctx.runId,
        (set = skillsReadIn(ctx.state.messages, ctx.tools, ctx.workspace.root, files)),
      );
      // A skill the run's message invoked is in use from the run's start.
      if (ctx.recipeCall?.source.startsWith('skill')) set.add(ctx.recipeCall.name);
    }
    return set;
  };
  // A run of this handler in the thread, here or recorded (an earlier run of the thread).
  const hasRun = (ctx: GateContext, h: ClaudeHandler) =>
    ran.has(`${ctx.threadId}\0${h.id}`) ||
    (hookRuns?.recent({ hookId: h.id, threadId: ctx.threadId, limit: 1 }).length ?? 0) > 0;
  return {
    files,
    active,
    takesPart: (ctx, h) =>
      !h.skill || ((active(ctx)?.has(h.skill) ?? false) && !(h.once && hasRun(ctx, h))),
    ranOnce: (ctx, h) => void ran.add(`${ctx.threadId}\0${h.id}`),
  };
}
