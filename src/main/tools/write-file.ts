/** The `write_file` tool: creates or replaces a file, creating missing parent folders. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolError, defineTool, type Tool } from './types.ts';
import type { FileChange } from '../../shared/types/index.ts';
import { MAX_FILE_BYTES, describeFsError } from './file-io.ts';
import type { Workspace } from './workspace.ts';

const params = z.object({
  path: z.string().describe('File to write, relative to the workspace root'),
  content: z.string().describe('The complete new content of the file'),
});

/**
 * Called after a successful write or edit with the displayed path, the new content, the change and
 * the bytes before it (null: the file did not exist; undefined: too large or unreadable to keep).
 */
export type FileChangeListener = (
  displayPath: string,
  content: string,
  change: Omit<FileChange, 'path'>,
  before?: Buffer | null,
) => void;

/** The file's bytes before a write, for its checkpoint (docs/tools.md#checkpoints). */
async function contentBefore(ws: Workspace, file: string): Promise<Buffer | null | undefined> {
  try {
    const opened = ws.openRead(file);
    try {
      return opened.stat.size > MAX_FILE_BYTES ? undefined : readFileSync(opened.fd);
    } finally {
      opened.close();
    }
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/** Creates `write_file`. Contract: returns JSON {path, bytes_written}; the path is checked before any folder is created. */
export function createWriteFileTool(opts: { onFileChange?: FileChangeListener } = {}): Tool {
  return defineTool({
    name: 'write_file',
    description:
      'Create or overwrite a file in the workspace with the given content. Parent folders are created.',
    parameters: params,
    effects: (args) => ({ writes: [args.path] }),
    preview: (args) => `write ${args.path}\n${args.content}`,
    dialects: {
      claude: {
        name: 'Write',
        args: { path: 'file_path' },
        paths: ['file_path'],
        toResponse: ({ args, absolute }) => ({
          type: 'create',
          filePath: absolute(String(args.path)),
          content: args.content,
        }),
      },
      kodelet: {
        name: 'file_write',
        args: { path: 'file_path', content: 'text' },
        paths: ['file_path'],
        toResponse: ({ args, absolute }) => ({
          filePath: absolute(String(args.path)),
          content: args.content,
          size: Buffer.byteLength(String(args.content)),
        }),
      },
    },
    boundedOutput: true,
    contentArgs: ['content'],
    async execute({ path: requested, content }, ctx) {
      const bytes = Buffer.byteLength(content, 'utf8');
      if (bytes > MAX_FILE_BYTES)
        throw new ToolError(`content too large (${bytes} bytes; the limit is ${MAX_FILE_BYTES})`);
      const file = await ctx.workspace.resolve(requested, 'write');
      const shown = ctx.workspace.display(file);
      if (file === ctx.workspace.root) throw new ToolError(`is a directory: ${shown}`);
      const before = opts.onFileChange ? await contentBefore(ctx.workspace, file) : undefined;
      let existed: boolean;
      try {
        ({ existed } = await ctx.workspace.write(file, content));
      } catch (err) {
        if (err instanceof ToolError) throw err;
        throw new ToolError(describeFsError(err, shown));
      }
      opts.onFileChange?.(
        shown,
        content,
        { tool_call_id: ctx.callId, change: existed ? 'modified' : 'created' },
        existed ? before : null,
      );
      return JSON.stringify({ path: shown, bytes_written: bytes });
    },
  });
}
