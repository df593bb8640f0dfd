/**
 * `@path` imports in memory files, as Claude Code reads them (docs/memory.md): a `@` at the start of a
 * line or after white space, outside Markdown code spans and fenced blocks, naming a file relative to
 * the importing file, absolute, or under `~/`. References to files that do not exist are mentions,
 * not imports (`@alice`).
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The text with fenced blocks and inline code spans blanked out (imports there are examples). */
export function stripCode(text: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      out.push('');
      continue;
    }
    if (marker) {
      fence = marker;
      out.push('');
      continue;
    }
    out.push(line.replace(/(`+)[\s\S]*?\1/g, ''));
  }
  return out.join('\n');
}

/** Every `@reference` of a memory file's text, as written, in order, without repeats. */
export function importRefs(text: string): string[] {
  const refs: string[] = [];
  for (const m of stripCode(text).matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
    // Trailing punctuation of the sentence is not part of the path ("see @README.md.").
    const ref = m[1].replace(/\\ /g, ' ').replace(/[.,;:!?)\]]+$/, '');
    if (ref && !refs.includes(ref)) refs.push(ref);
  }
  return refs;
}

/** Where a reference points: `~/` is the user's home, a relative path is relative to the importer. */
export function resolveRef(ref: string, importer: string): string {
  if (ref === '~' || ref.startsWith('~/')) return join(homedir(), ref.slice(1));
  return isAbsolute(ref) ? ref : resolve(dirname(importer), ref);
}

/** Whether a file holds nothing but import references (`CLAUDE.md` saying only `@AGENTS.md`). */
export function onlyImports(text: string): boolean {
  if (/`|~~~/.test(text)) return false;
  return text.replace(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g, ' ').trim() === '';
}
