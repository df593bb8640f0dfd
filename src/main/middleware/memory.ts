/**
 * The memory middleware: AGENTS.md memory (docs/memory.md) added as a system block of every model
 * request. The loader re-reads a file only when it changed, so an `edit_file` on AGENTS.md
 * shows in the very next request.
 */
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';
import { loadMemory, renderMemoryBlock, type MemoryCache } from '../memory/loader.ts';

export interface MemoryHookOptions {
  home: string;
  extraPaths?: readonly string[];
}

export const memoryInfo: MiddlewareInfo = {
  name: 'memory',
  description: 'Adds AGENTS.md memory to the system prompt',
  phases: ['before_agent', 'modify_request'],
};

/**
 * The memory hook: loads AGENTS.md memory before the run and injects it into every request.
 * Contract: the next request after an AGENTS.md edit carries the new text; never mutates its input.
 */
export function createMemoryHook(opts: MemoryHookOptions): Hook {
  const cache: MemoryCache = new Map();
  const load = (workspace: string) => loadMemory({ home: opts.home, workspace, extraPaths: opts.extraPaths }, cache);
  return {
    name: memoryInfo.name,
    source: 'builtin',
    description: memoryInfo.description,
    async beforeAgent(ctx) {
      const memory = await load(ctx.workspace.root);
      for (const s of memory.sources) {
        if (!s.refused) continue;
        ctx.trace?.recordEvent('memory_source_refused', { path: s.path, message: s.refused });
        ctx.emit({ event: 'error', data: { message: `memory ${s.refused}`, code: 'diagnostic' } });
      }
    },
    async modifyRequest(ctx, req) {
      return { ...req, system: [...req.system, renderMemoryBlock(await load(ctx.workspace.root))] };
    },
  };
}

