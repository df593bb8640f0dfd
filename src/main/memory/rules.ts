/**
 * Claude Code's modular rules (docs/memory.md): every `.md` under `.claude/rules/` (the project's)
 * and `$CLAUDE_CONFIG_DIR/rules/` (yours), subfolders included. A rule without `paths` frontmatter is
 * memory like CLAUDE.md; a rule with `paths` globs joins once the agent reads or writes a file they
 * match (workspace-relative), for the rest of the thread.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFrontmatter } from '../skills/frontmatter.ts';
import { globToRegExp } from '../tools/glob-pattern.ts';

/** Folder levels under a rules folder that are searched. */
const MAX_RULE_DEPTH = 5;
/** Rule files read per rules folder: a cloned repository cannot flood every request. */
export const MAX_RULES = 100;

/** The rule files under `root` in name order (folders after files at each level), and every folder searched. */
export function ruleFiles(root: string): { files: string[]; dirs: string[]; capped: boolean } {
  const files: string[] = [];
  const dirs: string[] = [];
  let capped = false;
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    dirs.push(dir);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (!e.name.endsWith('.md') || !(e.isFile() || e.isSymbolicLink())) continue;
      if (files.length >= MAX_RULES) {
        capped = true;
        return;
      }
      files.push(join(dir, e.name));
    }
    // A linked folder is not followed: it could lead anywhere, or round in a circle.
    if (depth < MAX_RULE_DEPTH)
      for (const e of entries) if (e.isDirectory()) walk(join(dir, e.name), depth + 1);
  };
  walk(root, 0);
  return { files, dirs, capped };
}

/** A rule file's body (its frontmatter taken off) and its `paths` globs, if it has any. */
export function readRule(text: string): { body: string; paths?: string[] } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { body: text };
  const body = text.slice(m[0].length);
  const read = readFrontmatter(m[1]!);
  const raw = read.ok ? read.data.paths : undefined;
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  const paths = list
    .filter((p): p is string => typeof p === 'string')
    .map((p) => p.trim())
    .filter(Boolean);
  return paths.length ? { body, paths } : { body };
}

/** Whether a workspace-relative path is one a rule's globs name. */
export function ruleMatches(paths: readonly string[], relativePath: string): boolean {
  return paths.some((glob) => {
    try {
      return globToRegExp(glob.replace(/^\.\//, '')).test(relativePath);
    } catch {
      return false;
    }
  });
}
