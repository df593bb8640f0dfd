/** The composer's `@` completion: workspace files and folders matching what was typed, .gitignore respected. */
import path from 'node:path';
import { walkTree } from '../tools/tree-walk.ts';
import { compareStrings } from '../tools/glob.ts';

const SKIPPED = new Set(['.git', 'node_modules']);
/** Files walked at most per query: a huge tree answers with what it found so far. */
const MAX_WALKED = 20_000;

/** The folders holding the files, each once, as `dir/` (a folder mention lists it). */
function foldersOf(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    for (let d = path.posix.dirname(file); d !== '.' && !dirs.has(d); d = path.posix.dirname(d))
      dirs.add(d);
  }
  return [...dirs].map((d) => `${d}/`);
}

/**
 * Up to `limit` workspace-relative paths (folders end in `/`) containing `query` (case-insensitive),
 * those whose name starts with it first, then shorter paths first.
 * Contract: never lists .git, node_modules or ignored files; never follows symlinks out.
 */
export async function listWorkspaceFiles(
  root: string,
  query: string,
  limit = 50,
): Promise<string[]> {
  const walk = await walkTree(root, {
    gitignore: true,
    skipDirNames: SKIPPED,
    maxFiles: MAX_WALKED,
  });
  const q = query.toLowerCase();
  const rel = walk.files.map((f) => path.relative(root, f).split(path.sep).join('/'));
  const hits = [...rel, ...foldersOf(rel)].filter((p) => p.toLowerCase().includes(q));
  const rank = (p: string) => (path.posix.basename(p).toLowerCase().startsWith(q) ? 0 : 1);
  hits.sort((a, b) => rank(a) - rank(b) || a.length - b.length || compareStrings(a, b));
  return hits.slice(0, limit);
}
