/** The `grep` tool: regex search over workspace files, through ripgrep when present, else in JS. */
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { ToolError, defineTool, type Tool } from './types.ts';
import { jsSearch } from './grep-js.ts';
import { looksBinary, readHead } from './file-io.ts';
import { findRipgrep, ripgrepSearch, RipgrepUnusableError } from './grep-ripgrep.ts';
import type { GrepOutput, GrepRequest } from './grep-results.ts';

/** Matches returned when the model gives no max_results. */
const DEFAULT_GREP_RESULTS = 200;
const MAX_GREP_RESULTS = 2000;

const params = z.object({
  pattern: z.string().describe('Regular expression to search for (one line at a time)'),
  path: z
    .string()
    .optional()
    .describe('Folder or file to search, relative to the workspace root (default: the root)'),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.tsx"'),
  case_insensitive: z.boolean().optional().describe('Ignore case (default false)'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(MAX_GREP_RESULTS)
    .optional()
    .describe(`Most matches returned (default ${DEFAULT_GREP_RESULTS})`),
});

/** Engine choice for the grep tool. */
export interface GrepToolOptions {
  /** false forces the JS engine; true/undefined uses ripgrep when it is on PATH. */
  useRipgrep?: boolean;
  /** Path of the rg binary (default: looked up on PATH). */
  ripgrepPath?: string;
  /** JS engine only, tests only: false searches on the main thread (default: worker threads). */
  workers?: boolean;
  /** JS engine: the search ends with an error after this long (default 10 s). */
  deadlineMs?: number;
  /** ripgrep: the search ends with the matches found so far after this long (default 20 s). */
  ripgrepDeadlineMs?: number;
}

/**
 * Creates `grep`.
 * Contract: returns JSON {matches:[{file,line,text}],truncated} sorted by file then line, identical for
 * both engines, plus `stopped` when ripgrep ran out of time; honours .gitignore, skips `.git` and
 * binary files.
 */
export function createGrepTool(opts: GrepToolOptions = {}): Tool {
  return defineTool({
    name: 'grep',
    description:
      'Search file contents with a regular expression. Honours .gitignore and skips binary files. ' +
      'Returns JSON {matches:[{file,line,text}], truncated}.',
    parameters: params,
    effects: (args) => ({ reads: [args.path ?? '.'] }),
    dialects: {
      // Grep's folder stays `path` in both dialects (guards read `tool_input.path`).
      claude: {
        name: 'Grep',
        args: { case_insensitive: '-i', max_results: 'head_limit' },
        paths: ['path'],
        toInput: (input) => ({ ...input, output_mode: 'content', '-n': true }),
        fromInput: ({ output_mode: _m, '-n': _n, ...rest }) => rest,
        toResponse: ({ output }) => ({ mode: 'content', content: output, numLines: output === '' ? 0 : output.split('\n').length }),
      },
      kodelet: {
        name: 'grep_tool',
        args: { glob: 'include', case_insensitive: 'ignore_case' },
        paths: ['path'],
      },
    },
    boundedOutput: true,
    async execute(a, ctx) {
      try {
        new RegExp(a.pattern, a.case_insensitive ? 'i' : '');
      } catch (err) {
        throw new ToolError(`invalid regular expression: ${(err as Error).message}`);
      }
      const target = await ctx.workspace.resolve(a.path ?? '.', 'read');
      const st = await fs.stat(target).catch(() => {
        throw new ToolError(`no such file or directory: ${ctx.workspace.display(target)}`);
      });
      if (!st.isFile() && !st.isDirectory()) {
        throw new ToolError(`not a regular file or folder: ${ctx.workspace.display(target)}`);
      }
      // A binary file named directly: rg would print a "binary file matches" notice; both engines skip it.
      if (st.isFile() && looksBinary(await readHead(target)))
        return JSON.stringify({ matches: [], truncated: false });
      const req: GrepRequest = {
        root: ctx.workspace.root,
        target,
        pattern: a.pattern,
        caseInsensitive: a.case_insensitive ?? false,
        glob: a.glob,
        maxResults: a.max_results ?? DEFAULT_GREP_RESULTS,
        skipHardLinked: !ctx.workspace.allowHardLinks,
        signal: ctx.signal,
        display: (abs) => ctx.workspace.display(abs),
      };
      return JSON.stringify(await search(req, opts));
    },
  });
}

async function search(req: GrepRequest, opts: GrepToolOptions): Promise<GrepOutput> {
  const rg = opts.useRipgrep === false ? null : (opts.ripgrepPath ?? findRipgrep());
  if (rg) {
    try {
      return await ripgrepSearch(rg, req, opts.ripgrepDeadlineMs);
    } catch (err) {
      // A regex only JavaScript understands, or rg vanished: the JS engine still answers.
      if (
        !(err instanceof RipgrepUnusableError) &&
        (err as NodeJS.ErrnoException).code !== 'ENOENT'
      )
        throw err;
    }
  }
  try {
    return await jsSearch(req, { workers: opts.workers, deadlineMs: opts.deadlineMs });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ToolError(`no such file or directory: ${req.display(req.target)}`);
    throw err;
  }
}
