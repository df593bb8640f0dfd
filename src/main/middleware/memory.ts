/**
 * The memory middleware: AGENTS.md memory (docs/memory.md) injected into the system message of every
 * model request. The loader re-reads a file only when it changed, so an `edit_file` on AGENTS.md
 * shows in the very next request.
 */
import type { Message } from '../../shared/types/index.ts';
import type { Hook } from '../pipeline/hook.ts';
import { loadMemory, renderMemoryBlock, type MemoryCache } from '../memory/loader.ts';

export interface MemoryHookOptions {
  home: string;
  extraPaths?: readonly string[];
}

/**
 * Returns a copy of `msgs` whose first message is a system message ending with `block`; a system
 * message is created at index 0 when the first message is not one.
 * Contract: never mutates `msgs` or its messages.
 */
export function appendToSystem(msgs: readonly Message[], block: string): Message[] {
  const first = msgs[0];
  if (first?.role === 'system') {
    return [{ ...first, content: first.content ? `${first.content}\n\n${block}` : block }, ...msgs.slice(1)];
  }
  return [{ role: 'system', content: block }, ...msgs];
}

/**
 * The memory hook: loads AGENTS.md memory before the run and injects it into every request.
 * Contract: the next request after an AGENTS.md edit carries the new text; never mutates its input.
 */
export function createMemoryHook(opts: MemoryHookOptions): Hook {
  const cache: MemoryCache = new Map();
  const load = (workspace: string) => loadMemory({ home: opts.home, workspace, extraPaths: opts.extraPaths }, cache);
  return {
    name: 'memory',
    source: 'builtin',
    async beforeAgent(ctx) {
      await load(ctx.workspace.root);
    },
    async modifyRequest(ctx, msgs) {
      return appendToSystem(msgs, renderMemoryBlock(await load(ctx.workspace.root)));
    },
  };
}

