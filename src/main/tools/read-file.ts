/** The `read_file` tool: numbered lines of a text file, paged, never dumping binaries or huge files. */
import { readSync } from 'node:fs';
import { z } from 'zod';
import { ToolError, defineTool, type Tool } from './types.ts';
import { MAX_FILE_BYTES, describeFsError, looksBinary, readHeadOf } from './file-io.ts';
import { readLinePage } from './line-reader.ts';
import type { OpenedFile } from './safe-fs.ts';

/** Lines read when the model gives no limit. */
const DEFAULT_READ_LINES = 2000;
/** Longer lines are cut to this many characters. */
const MAX_LINE_CHARS = 2000;
const MAX_PAGE_CHARS = 256 * 1024;
/** Files up to this size are read in one go instead of streamed. */
const WHOLE_READ_BYTES = 256 * 1024;

/** The file's first `size` bytes (fewer if it shrank since its stat). */
function readWhole(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let read = 0;
  while (read < size) {
    const n = readSync(fd, buf, read, size - read, read);
    if (n === 0) break;
    read += n;
  }
  return buf.subarray(0, read);
}

const params = z.object({
  path: z.string().describe('File to read, relative to the workspace root'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start from'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Number of lines to read (default ${DEFAULT_READ_LINES})`),
});

/** Creates `read_file`. Contract: output is `cat -n` style; binaries and >10 MB files without offset/limit are not read. */
export function createReadFileTool(opts: { maxLines?: number } = {}): Tool {
  const defaultLimit = opts.maxLines ?? DEFAULT_READ_LINES;
  return defineTool({
    name: 'read_file',
    description:
      `Read a text file of the workspace. Returns numbered lines (up to ${defaultLimit} by default); ` +
      'use offset and limit to page through long files.',
    parameters: params,
    effects: (args) => ({ reads: [args.path] }),
    dialects: {
      claude: {
        name: 'Read',
        args: { path: 'file_path' },
        paths: ['file_path'],
        toResponse: ({ args, output, absolute }) => ({
          type: 'text',
          file: { filePath: absolute(String(args.path)), content: output, numLines: output.split('\n').length, startLine: args.offset ?? 1 },
        }),
      },
      kodelet: {
        name: 'file_read',
        args: { path: 'file_path', limit: 'line_limit' },
        paths: ['file_path'],
        toResponse: ({ args, output, absolute }) => ({ filePath: absolute(String(args.path)), offset: args.offset ?? 1, lines: output.split('\n') }),
      },
    },
    boundedOutput: true,
    async execute({ path: requested, offset, limit }, ctx) {
      const file = await ctx.workspace.resolve(requested, 'read');
      const shown = ctx.workspace.display(file);
      let opened: OpenedFile;
      try {
        opened = ctx.workspace.openRead(file);
      } catch (err) {
        if (err instanceof ToolError) {
          throw err.message.startsWith('is a directory')
            ? new ToolError(`${err.message} (use ls)`)
            : err;
        }
        throw new ToolError(describeFsError(err, shown));
      }
      try {
        return await readOpened(opened, { offset, limit, defaultLimit, signal: ctx.signal }, shown);
      } finally {
        opened.close();
      }
    },
  });
}

interface Page {
  offset?: number;
  limit?: number;
  defaultLimit: number;
  signal: AbortSignal;
}

async function readOpened({ fd, stat }: OpenedFile, p: Page, shown: string): Promise<string> {
  const size = stat.size;
  // A small file is read whole in one synchronous read (microseconds from the page cache, where each
  // trip through the thread pool costs ~0.1 ms); a big one streams, so a page deep in it can be cancelled.
  let whole: Buffer | undefined;
  try {
    whole = size <= WHOLE_READ_BYTES ? readWhole(fd, size) : undefined;
    if (looksBinary(whole ?? readHeadOf(fd)))
      return `binary file (${size} bytes), not shown`;
  } catch (err) {
    throw new ToolError(describeFsError(err, shown));
  }
  if (size > MAX_FILE_BYTES && p.offset === undefined && p.limit === undefined) {
    throw new ToolError(
      `file is too large to read whole (${size} bytes); read a part with offset and limit`,
    );
  }
  if (size === 0) return '(empty file)';
  const start = p.offset ?? 1;
  const page = await readLinePage(whole ?? fd, {
    offset: start,
    limit: p.limit ?? p.defaultLimit,
    maxLineChars: MAX_LINE_CHARS,
    maxPageChars: MAX_PAGE_CHARS,
    signal: p.signal,
  });
  if (page.lines.length === 0) {
    return `offset ${start} is past the end of the file (${page.linesSeen} lines)`;
  }
  const body = page.lines
    .map((line, i) => {
      const text = page.cut.has(i) ? `${line}… [line cut at ${MAX_LINE_CHARS} characters]` : line;
      return `${String(start + i).padStart(6)}	${text}`;
    })
    .join('\n');
  if (!page.more) return body;
  const next = start + page.lines.length;
  return `${body}\n\n(more lines remain; continue with offset=${next})`;
}
