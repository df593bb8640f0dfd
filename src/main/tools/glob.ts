/** The `glob` tool: workspace files whose relative path matches a glob pattern. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, defineTool, type Tool } from './types.ts';
import { globToRegExp, hasGlobMagic } from './glob-pattern.ts';
import { walkTree } from './tree-walk.ts';

/** Most paths the glob tool returns. */
const MAX_GLOB_RESULTS = 1000;
const MAX_WALKED_FILES = 200_000;
const DEFAULT_SKIPPED = ['.git', 'node_modules'];

const params = z.object({
  pattern: z
    .string()
    .min(1, 'pattern must not be empty')
    .describe('Glob such as "**/*.ts", "src/*.{js,jsx}", "test/?.txt"'),
  path: z
    .string()
    .optional()
    .describe('Folder to search from, relative to the workspace root (default: the root)'),
});

/**
 * Creates `glob`.
 * Contract: returns JSON {files: root-relative paths sorted, truncated}; at most 1000 files; `.git` and
 * `node_modules` are skipped unless the pattern names them; symlinked folders are not entered.
 */
export function createGlobTool(): Tool {
  return defineTool({
    name: 'glob',
    description:
      'Find files by glob pattern (supports **, *, ?, {a,b}, [abc]) relative to path (default the workspace root). ' +
      `Returns JSON {files, truncated}, at most ${MAX_GLOB_RESULTS} files.`,
    parameters: params,
    effects: (args) => ({ reads: [args.path ?? '.'] }),
    dialects: {
      claude: { name: 'Glob', paths: ['path'], toResponse: ({ output }) => globResponse(output) },
      kodelet: { name: 'glob_tool', paths: ['path'] },
    },
    boundedOutput: true,
    async execute({ pattern: rawPattern, path: requested }, ctx) {
      const pattern = rawPattern.replace(/^\.\//, '');
      if (path.isAbsolute(pattern) || pattern.split('/').includes('..')) {
        throw new ToolError(
          'pattern must be relative and must not contain ".."; give the folder in "path"',
        );
      }
      const base = await ctx.workspace.resolve(requested ?? '.', 'read');
      const segments = pattern.split('/');
      const literal: string[] = [];
      while (segments.length > 1 && !hasGlobMagic(segments[0]!)) literal.push(segments.shift()!);
      // Start the walk below the literal prefix, through the guard in case a prefix folder is a symlink.
      const prefix = literal.join('/');
      let start: string;
      try {
        start = prefix ? await ctx.workspace.resolve(path.join(base, prefix), 'read') : base;
        if (!(await fs.stat(start)).isDirectory())
          return JSON.stringify({ files: [], truncated: false });
      } catch (err) {
        if (err instanceof Error && err.name === 'PathOutsideWorkspaceError') throw err;
        if (err instanceof ToolError) throw err;
        return JSON.stringify({ files: [], truncated: false });
      }
      const skip = new Set(DEFAULT_SKIPPED.filter((name) => !pattern.includes(name)));
      const walk = await walkTree(start, {
        skipDirNames: skip,
        signal: ctx.signal,
        maxFiles: MAX_WALKED_FILES,
      });
      const re = globToRegExp(segments.join('/'));
      const logicalStart = prefix ? path.join(base, prefix) : base;
      const matches: string[] = [];
      for (const file of walk.files) {
        const rel = toSlash(file.slice(start.length + 1));
        if (re.test(rel)) matches.push(ctx.workspace.display(path.join(logicalStart, rel)));
      }
      matches.sort(compareStrings);
      const truncated = walk.truncated || matches.length > MAX_GLOB_RESULTS;
      return JSON.stringify({ files: matches.slice(0, MAX_GLOB_RESULTS), truncated });
    },
  });
}

function toSlash(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

/** Code-unit order, the same everywhere (localeCompare would depend on the machine's locale). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Glob's result as Claude Code's Glob reports it. */
function globResponse(output: string): Record<string, unknown> {
  try {
    const { files, truncated } = JSON.parse(output) as { files: string[]; truncated: boolean };
    return { filenames: files, numFiles: files.length, truncated };
  } catch {
    return { filenames: [], numFiles: 0, truncated: false };
  }
}
