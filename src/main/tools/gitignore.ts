/**
 * A .gitignore subset for the JS grep fallback: comments, blank lines, `!` negation, dir-only `/`,
 * anchored patterns (leading or inner `/`), `*`, `**`, `?`, `[...]`; last matching rule wins, nested
 * files refine their parents. Good enough to agree with ripgrep on ordinary repositories.
 */
import path from 'node:path';
import { globToSource } from './glob-pattern.ts';

/** One parsed .gitignore line. */
export interface IgnoreRule {
  readonly negate: boolean;
  readonly dirOnly: boolean;
  readonly re: RegExp;
}

/** The rules of one .gitignore and the folder its patterns are relative to. */
export interface IgnoreFile {
  readonly dir: string; // absolute
  readonly rules: readonly IgnoreRule[];
}

/** Parses .gitignore text into rules; invalid lines are skipped rather than failing the search. */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const source = globToSource(line);
    try {
      rules.push({ negate, dirOnly, re: new RegExp(anchored ? `^${source}$` : `^(?:.*/)?${source}$`) });
    } catch {
      // A pattern git would also fail to use; ignore it.
    }
  }
  return rules;
}

/**
 * Whether `abs` is ignored by the stack of ignore files (outermost first).
 * Contract: the caller never descends into ignored folders, so parents need no re-check here.
 */
export function isIgnored(abs: string, isDir: boolean, stack: readonly IgnoreFile[]): boolean {
  let ignored = false;
  for (const file of stack) {
    if (file.rules.length === 0) continue;
    const rel = relativeTo(file.dir, abs);
    if (rel === undefined) continue;
    for (const rule of file.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (ignored === !rule.negate) continue; // cannot change the outcome
      if (rule.re.test(rel)) ignored = !rule.negate;
    }
  }
  return ignored;
}

function relativeTo(dir: string, abs: string): string | undefined {
  if (!abs.startsWith(dir + path.sep)) return undefined;
  const rel = abs.slice(dir.length + 1);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}
