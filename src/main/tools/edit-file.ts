/** The `edit_file` tool: exact-text replacement of the first occurrence, byte-preserving elsewhere. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolError, defineTool, type Tool } from './types.ts';
import { MAX_FILE_BYTES, describeFsError, looksBinary } from './file-io.ts';
import type { FileChangeListener } from './write-file.ts';

const params = z.object({
  path: z.string().describe('File to edit, relative to the workspace root'),
  old_text: z
    .string()
    .min(1, 'old_text must not be empty')
    .describe('Exact text to find (first occurrence is replaced)'),
  new_text: z.string().describe('Replacement text'),
});

/**
 * Creates `edit_file`.
 * Contract: fails with exactly `old_text not found in file` when there is no match; works on bytes,
 * so encoding, BOM and line endings outside the replaced range are kept; writes atomically keeping the mode.
 */
export function createEditFileTool(opts: { onFileChange?: FileChangeListener } = {}): Tool {
  return defineTool({
    name: 'edit_file',
    description:
      'Replace the first exact occurrence of old_text with new_text in a workspace file. ' +
      'old_text must match the file exactly, including whitespace.',
    parameters: params,
    effects: (args) => ({ writes: [args.path] }),
    preview: (args) => `edit ${args.path}\n--- old\n${args.old_text}\n+++ new\n${args.new_text}`,
    dialects: {
      // Only the first occurrence is replaced, so `replace_all` is always false.
      claude: {
        name: 'Edit',
        args: { path: 'file_path', old_text: 'old_string', new_text: 'new_string' },
        paths: ['file_path'],
        toInput: (input) => ({ ...input, replace_all: false }),
        fromInput: ({ replace_all: _r, ...rest }) => rest,
        toResponse: ({ args, absolute }) => ({
          filePath: absolute(String(args.path)),
          oldString: args.old_text,
          newString: args.new_text,
          replaceAll: false,
          userModified: false,
        }),
      },
      kodelet: {
        name: 'file_edit',
        args: { path: 'file_path' },
        paths: ['file_path'],
        toInput: (input) => ({ ...input, replace_all: false }),
        fromInput: ({ replace_all: _r, ...rest }) => rest,
        toResponse: ({ args, absolute }) => ({
          filePath: absolute(String(args.path)),
          replaceAll: false,
        }),
      },
    },
    boundedOutput: true,
    contentArgs: ['old_text', 'new_text'],
    async execute({ path: requested, old_text: oldText, new_text: newText }, ctx) {
      const file = await ctx.workspace.resolve(requested, 'write');
      const shown = ctx.workspace.display(file);
      let data: Buffer;
      try {
        const opened = ctx.workspace.openRead(file);
        try {
          if (opened.stat.size > MAX_FILE_BYTES)
            throw new ToolError(`file too large to edit (${opened.stat.size} bytes)`);
          data = readFileSync(opened.fd);
        } finally {
          opened.close();
        }
      } catch (err) {
        if (err instanceof ToolError) throw err;
        throw new ToolError(describeFsError(err, shown));
      }
      if (looksBinary(data)) throw new ToolError(`refusing to edit a binary file: ${shown}`);
      const needle = Buffer.from(oldText, 'utf8');
      const at = data.indexOf(needle);
      if (at === -1) throw new ToolError('old_text not found in file');
      const updated = Buffer.concat([
        data.subarray(0, at),
        Buffer.from(newText, 'utf8'),
        data.subarray(at + needle.length),
      ]);
      try {
        await ctx.workspace.write(file, updated);
      } catch (err) {
        if (err instanceof ToolError) throw err;
        throw new ToolError(describeFsError(err, shown));
      }
      const others = countFrom(data, needle, at + needle.length);
      opts.onFileChange?.(
        shown,
        updated.toString('utf8'),
        { tool_call_id: ctx.callId, change: 'modified' },
        data,
      );
      const note =
        others > 0 ? ` (${others} more occurrence${others === 1 ? '' : 's'} left unchanged)` : '';
      return `Edited ${shown}: replaced 1 occurrence${note}`;
    },
  });
}

function countFrom(data: Buffer, needle: Buffer, from: number): number {
  let count = 0;
  for (let i = data.indexOf(needle, from); i !== -1; i = data.indexOf(needle, i + needle.length))
    count++;
  return count;
}
