/**
 * The filesystem middleware: registers the seven workspace tools, tells the model the working
 * directories added to the workspace, and evicts oversized tool results (docs/tools.md).
 */
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';
import { EVICTION_KEEP_CHARS, MAX_RESULT_CHARS } from '../../shared/constants.ts';
import { createCommandSnapshotter } from '../checkpoints/command-snapshot.ts';
import { createFilesystemTools, type FilesystemToolsOptions } from '../tools/index.ts';

export interface FilesystemHookOptions extends Omit<FilesystemToolsOptions, 'onFileChange'> {
  /** Results longer than this are cut (default MAX_RESULT_CHARS = 80,000). */
  maxResultChars?: number;
}

/**
 * Creates the filesystem hook.
 * Contract: results of tools that do not cap their own output (`boundedOutput`) whose output exceeds
 * `maxResultChars` are replaced by the first and last 2,000 characters around a `... (truncated X characters) ...` marker.
 */
export function createFilesystemHook(opts: FilesystemHookOptions = {}): Hook {
  const max = opts.maxResultChars ?? MAX_RESULT_CHARS;
  return {
    name: 'filesystem',
    source: 'builtin',
    async beforeAgent(ctx) {
      const tools = createFilesystemTools({
        ...opts,
        execute: {
          ...opts.execute,
          sandbox: { settings: ctx.settings.sandbox, workbenchHome: ctx.home },
          snapshot: ctx.recordCommand
            ? createCommandSnapshotter({
                workbenchHome: ctx.home,
                sink: {
                  record: (snapshot, files) => ctx.recordCommand!(snapshot, files),
                  skipped: (reason) => ctx.trace?.recordEvent('snapshot_skipped', { reason }),
                },
              })
            : undefined,
        },
        onFileChange: (path, content, change, before) =>
          ctx.recordFile(path, content, change, before),
      });
      for (const tool of tools) ctx.tools.register(tool);
    },
    async modifyRequest(ctx, req) {
      const dirs = ctx.workspace.extraRoots;
      if (!dirs.length) return req;
      return { ...req, system: [...req.system, workingDirsNote(dirs)] };
    },
    async wrapToolCall(ctx, call, next) {
      const result = await next(call);
      if (result.output.length <= max || ctx.tools.get(result.name)?.boundedOutput) return result;
      return { ...result, output: evict(result.output) };
    },
  };
}

/** What the model is told of the working directories besides the workspace (`--add-dir`). */
export function workingDirsNote(dirs: readonly string[]): string {
  return `Additional working directories, read and written as the workspace is (use absolute paths): ${dirs.join(', ')}`;
}

/** The eviction text: head, a marker with the number of characters removed, tail. */
export function evict(output: string): string {
  const removed = output.length - 2 * EVICTION_KEEP_CHARS;
  return `${output.slice(0, EVICTION_KEEP_CHARS)}\n\n... (truncated ${removed} characters) ...\n\n${output.slice(-EVICTION_KEEP_CHARS)}`;
}

/** The filesystem middleware as the hooks panel lists it. */
export const filesystemInfo: MiddlewareInfo = {
  name: 'filesystem',
  description: 'The seven workspace tools; evicts results over 80,000 characters',
  phases: ['before_agent', 'modify_request', 'wrap_tool_call'],
};
