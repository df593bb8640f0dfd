/**
 * The memory middleware: AGENTS.md / CLAUDE.md memory (docs/memory.md) added as a system block of every
 * model request. Each request checks the files' stat signatures and loads again only when one
 * changed (memory/memo.ts), so an `edit_file` on AGENTS.md shows in the very next request. Like Claude Code, the memory of a workspace subfolder joins once
 * the agent reads or writes a file there, and a rule with `paths` once it touches a file they match;
 * both stay for the rest of the thread. Each file that joins is told to the instructions_loaded phase.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ruleMatches } from '../memory/rules.ts';
import type { Hook, LoadedInstructions, MiddlewareInfo, RunContext } from '../pipeline/hook.ts';
import {
  renderMemoryBlock,
  type LoadedMemory,
  type MemoryImport,
  type MemoryScope,
  readsWorkingDirMemory,
} from '../memory/loader.ts';
import { createMemoryMemo } from '../memory/memo.ts';
import { statIfAny } from '../fs/stat-if-any.ts';
import { callEffects } from '../tools/call-policy.ts';
import type { AgentMemory } from '../agents/agent-memory.ts';

export interface MemoryHookOptions {
  home: string;
  extraPaths?: readonly string[];
  /**
   * The subfolders and path rules whose memory a thread follows, kept by the workbench across the
   * thread's runs (and shown by the memory panel); without it each run starts with none.
   */
  threadMemory?: ThreadMemory;
  /** The running agent's own memory (Claude Code's agent `memory`), opened for the run. */
  agentMemory?: AgentMemory;
  /**
   * Read the working directories' memory (`CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1` in the
   * environment or a settings file's `env`); default: the environment alone.
   */
  workingDirMemory?: boolean;
}

/**
 * What each thread's memory grew by (thread id →): the subfolders the agent touched, in the order it
 * touched them, and the Claude Code rules with `paths` that a touched file matched.
 */
export type ThreadMemory = Map<string, { folders: Set<string>; rules: Set<string> }>;

/** What a run has told the instructions_loaded phase: the memory it last checked and the files told. */
interface Told {
  memory?: LoadedMemory;
  paths: Set<string>;
  /** Subfolder or rule → the path whose read or write brought it in. */
  triggers: Map<string, string>;
}

export const memoryInfo: MiddlewareInfo = {
  name: 'memory',
  description: 'Adds AGENTS.md / CLAUDE.md memory to the system prompt',
  phases: ['before_agent', 'modify_request', 'wrap_tool_call'],
};

/** Subfolders whose memory a run follows: each one adds up to two files to every request. */
export const MAX_MEMORY_FOLDERS = 32;

/**
 * The memory hook: loads memory before the run and injects it into every request.
 * Contract: the next request after an AGENTS.md edit carries the new text; after a tool call read or
 * wrote a path in a workspace subfolder, later requests carry that folder's (and its parents')
 * AGENTS.md / CLAUDE.md, at most 32 folders per thread; never mutates its input.
 */
export function createMemoryHook(opts: MemoryHookOptions): Hook {
  const memo = createMemoryMemo();
  const threads: ThreadMemory = opts.threadMemory ?? new Map();
  const told = new WeakMap<RunContext, Told>();
  const toldOf = (ctx: RunContext): Told => {
    let t = told.get(ctx);
    if (!t) told.set(ctx, (t = { paths: new Set(), triggers: new Map() }));
    return t;
  };
  /** Tells the hooks about memory files that joined the run's requests since it last did. */
  const tell = async (ctx: RunContext, memory: LoadedMemory, atStart: boolean) => {
    const t = toldOf(ctx);
    if (t.memory === memory) return;
    t.memory = memory;
    const files = joinedFiles(memory, t, atStart);
    if (files.length && ctx.notifyInstructions) await ctx.notifyInstructions(files);
  };
  const load = (ctx: RunContext) =>
    memo.load({
      home: opts.home,
      workspace: ctx.workspace.root,
      extraPaths: opts.extraPaths,
      folders: [...(threads.get(ctx.threadId)?.folders ?? [])],
      rules: [...(threads.get(ctx.threadId)?.rules ?? [])],
      // Claude Code reads the working directories' memory only when told to.
      ...((opts.workingDirMemory ?? readsWorkingDirMemory()) ? { workingDirs: ctx.workspace.extraRoots } : {}),
    });
  return {
    name: memoryInfo.name,
    source: 'builtin',
    description: memoryInfo.description,
    async beforeAgent(ctx) {
      if (!threads.has(ctx.threadId))
        threads.set(ctx.threadId, { folders: new Set(), rules: new Set() });
      const memory = await load(ctx);
      await tell(ctx, memory, true);
      // Files refused by the source policy are reported; cut cycles and repeats are only shown in the panel.
      for (const s of refusedFiles(memory.sources)) {
        ctx.trace?.recordEvent('memory_source_refused', { path: s.path, message: s.refused });
        ctx.emit({ event: 'error', data: { message: `memory ${s.refused}`, code: 'diagnostic' } });
      }
      if (opts.agentMemory && 'problem' in opts.agentMemory)
        ctx.emit({
          event: 'error',
          data: { message: opts.agentMemory.problem, code: 'diagnostic' },
        });
    },
    async modifyRequest(ctx, req) {
      const memory = await load(ctx);
      await tell(ctx, memory, false);
      const own = opts.agentMemory && 'block' in opts.agentMemory ? [opts.agentMemory.block] : [];
      return { ...req, system: [...req.system, renderMemoryBlock(memory), ...own] };
    },
    async wrapToolCall(ctx, call, next) {
      const result = await next(call);
      const thread = threads.get(ctx.threadId);
      const tool = ctx.tools.get(call.name);
      const effects = tool && thread ? callEffects(tool, call.args) : undefined;
      if (!effects || !thread) return result;
      const touched = [...(effects.reads ?? []), ...(effects.writes ?? [])];
      const { triggers, memory } = toldOf(ctx);
      // Rules with `paths` the touched files match join from the next request on.
      const waiting = memory?.sources.filter((s) => s.waiting && s.paths) ?? [];
      for (const p of touched) {
        const abs = resolve(ctx.workspace.root, p);
        const rel = relative(ctx.workspace.root, abs);
        for (const rule of waiting) {
          if (thread.rules.has(rule.path) || !ruleMatches(rule.paths!, rel)) continue;
          thread.rules.add(rule.path);
          triggers.set(rule.path, abs);
        }
        for (const dir of foldersOf(ctx.workspace.root, p)) {
          if (thread.folders.size >= MAX_MEMORY_FOLDERS) break;
          if (!thread.folders.has(dir)) triggers.set(dir, abs);
          thread.folders.add(dir);
        }
      }
      return result;
    },
  };
}

/** The workspace subfolders from the root down to `path`'s folder (the path itself when a folder). */
function foldersOf(root: string, path: string): string[] {
  const abs = resolve(root, path);
  const rel = relative(root, abs);
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return [];
  let isDir = false;
  try {
    isDir = statIfAny(abs)?.isDirectory() ?? false; // a local stat: microseconds, no thread-pool trip
  } catch {
    // unreadable: counted as a file, so its folder's memory still joins
  }
  const out: string[] = [];
  for (
    let dir = isDir ? abs : dirname(abs);
    dir !== root && dir.startsWith(root + sep);
    dir = dirname(dir)
  )
    out.unshift(dir);
  return out;
}

/**
 * The files of `memory` not told yet: at the run's start every source read and what it imports;
 * later a subfolder's memory or a rule with `paths` (with the path that brought it in) and its imports. A top-level file
 * created during a run joins its requests at once but is told at the next run's start.
 */
function joinedFiles(memory: LoadedMemory, told: Told, atStart: boolean): LoadedInstructions[] {
  const out: LoadedInstructions[] = [];
  const add = (file: LoadedInstructions) => {
    if (told.paths.has(file.path)) return;
    told.paths.add(file.path);
    out.push(file);
  };
  const addImports = (
    parent: string,
    scope: MemoryScope,
    imports: readonly MemoryImport[] = [],
  ) => {
    for (const i of imports) {
      if (!i.exists || i.refused) continue;
      add({ path: i.path, scope, reason: 'import', parent });
      addImports(i.path, scope, i.imports);
    }
  };
  for (const s of memory.sources) {
    if (!s.exists || s.refused || s.waiting) continue;
    // Later in a run only what the agent brought in is new: a subfolder's memory, a rule it matched.
    const lazy = s.scope === 'subfolder' || s.paths !== undefined;
    if (!atStart && !lazy && !told.paths.has(s.path)) continue;
    const trigger = atStart ? undefined : told.triggers.get(s.paths ? s.path : dirname(s.path));
    const reason = atStart ? 'run_start' : s.paths ? 'rule' : 'subfolder';
    add({
      path: s.path,
      scope: s.scope,
      reason,
      ...(trigger ? { trigger } : {}),
      ...(s.paths ? { globs: s.paths } : {}),
    });
    addImports(s.path, s.scope, s.imports);
  }
  return out;
}

/** Sources and imports (at any depth) the source policy refused. */
function refusedFiles(
  nodes: ReadonlyArray<{ path: string; refused?: string; imports?: MemoryImport[] }>,
): Array<{ path: string; refused: string }> {
  return nodes.flatMap((n) => [
    ...(n.refused?.startsWith('refused:') ? [{ path: n.path, refused: n.refused }] : []),
    ...refusedFiles(n.imports ?? []),
  ]);
}
