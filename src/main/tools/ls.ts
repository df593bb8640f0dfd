/** The `ls` tool: one folder's entries as JSON. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, defineTool, type Tool } from './types.ts';
import { describeFsError } from './file-io.ts';

const params = z.object({
  path: z
    .string()
    .default('.')
    .describe('Folder to list, relative to the workspace root (default ".")'),
});

/** One entry of the ls output. */
export interface LsEntry {
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
}

/** Creates `ls`. Contract: returns a JSON array of {name,type,size} sorted by name; symlinks are not followed. */
export function createLsTool(): Tool {
  return defineTool({
    name: 'ls',
    description:
      'List the files and folders in a directory of the workspace. Returns a JSON array of {name, type, size}.',
    parameters: params,
    effects: (args) => ({ reads: [args.path] }),
    dialects: {
      claude: { name: 'LS', paths: ['path'] },
      kodelet: { name: 'ls', paths: ['path'] },
    },
    boundedOutput: true,
    async execute({ path: requested }, ctx) {
      const dir = await ctx.workspace.resolve(requested, 'read');
      const shown = ctx.workspace.display(dir);
      let dirents;
      try {
        dirents = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        throw new ToolError(describeFsError(err, shown));
      }
      const entries: LsEntry[] = await Promise.all(
        dirents.map(async (d): Promise<LsEntry> => {
          const type = d.isSymbolicLink()
            ? 'symlink'
            : d.isDirectory()
              ? 'dir'
              : d.isFile()
                ? 'file'
                : 'other';
          const size = await fs
            .lstat(path.join(dir, d.name))
            .then((s) => s.size)
            .catch(() => 0);
          return { name: d.name, type, size };
        }),
      );
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return JSON.stringify(entries);
    },
  });
}
