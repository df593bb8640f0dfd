/**
 * The files a shell command names for the file commands Claude Code recognizes in Bash (`cat`,
 * `head`, `sed`, `rm`, `cp`…) and for its redirections, each read or written: what `Read(…)` and
 * `Edit(…)` permission rules judge in a command (docs/security.md#permission-rules). A best effort,
 * as in Claude Code: a word only known when it runs (`$VAR`, `$(…)`) names nothing here, and a
 * program that opens files itself (`python -c …`) is not read; the sandbox is the boundary for those.
 */
import { globSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  child,
  list,
  nodeType,
  NOT_A_FILE,
  parseShell,
  redirectAccess,
  walkShell,
  type ShNode,
} from '../tools/shell-syntax.ts';

export interface NamedPath {
  /** Absolute path, not resolved through links (the rules look at both). */
  path: string;
  access: 'read' | 'write';
  /**
   * The tool a Claude Code rule would see doing it: `Write` for a write (so `Edit(…)` and
   * `Write(…)` rules both cover it), `LS` or `Grep` for a folder listed or searched.
   */
  tool: 'Read' | 'Write' | 'LS' | 'Grep';
}

/** A word as the shell passes it on; `glob` when the shell expands it to the files it matches. */
interface Word {
  text: string;
  glob: boolean;
}

/** A file a command names, before it is resolved to a path. */
type Named = Omit<NamedPath, 'path'> & { word: Word };

/** Programs whose operands are files they read. */
const READERS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'nl',
  'tac',
  'od',
  'hexdump',
  'xxd',
  'strings',
  'base64',
  'wc',
  'sort',
  'uniq',
  'cut',
  'paste',
  'column',
  'file',
  'stat',
  'diff',
  'cmp',
  'comm',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'cksum',
  'jq',
  'yq',
  'source',
  '.',
]);
/** Programs whose operands are files they change or remove. */
const WRITERS = new Set([
  'touch',
  'rm',
  'rmdir',
  'mkdir',
  'tee',
  'truncate',
  'chmod',
  'chown',
  'chgrp',
  'mv',
]);
/** Programs whose first operand is a pattern or a script, unless one is given by an option. */
const SEARCHERS: Record<string, readonly string[]> = {
  grep: ['-e', '-f', '--regexp', '--file'],
  egrep: ['-e', '-f', '--regexp', '--file'],
  fgrep: ['-e', '-f', '--regexp', '--file'],
  rg: ['-e', '-f', '--regexp', '--file'],
  sed: ['-e', '-f', '--expression', '--file'],
  awk: ['-f', '--file'],
  gawk: ['-f', '--file'],
};
/** Programs that look inside the folders they are given. */
const LISTERS = new Set(['ls', 'tree', 'du', 'find']);
/** Programs that run the command after them. */
const WRAPPERS = new Set([
  'timeout',
  'nice',
  'nohup',
  'time',
  'stdbuf',
  'ionice',
  'command',
  'builtin',
]);
/** Globs expanded per word, at most (bash would pass them all; past this the rest are not judged). */
const MAX_GLOB_MATCHES = 1000;

/** A word's text after quote removal and `~/` expansion; undefined when only known at run time. */
function wordText(word: ShNode, home: string): Word | undefined {
  let text = '';
  let glob = false;
  for (const [i, part] of list(word, 'Parts').entries()) {
    const type = nodeType(part);
    if (type === 'Lit') {
      let value = String(part.Value).replace(/\\\n/g, '');
      if (i === 0 && (value === '~' || value.startsWith('~/'))) value = home + value.slice(1);
      else if (i === 0 && value.startsWith('~')) return undefined;
      if (/(^|[^\\])[*?[]/.test(value)) glob = true;
      text += value.replace(/\\(.)/gs, '$1');
    } else if (type === 'SglQuoted' && !part.Dollar) text += String(part.Value);
    else if (type === 'DblQuoted' && list(part, 'Parts').every((p) => nodeType(p) === 'Lit'))
      text += list(part, 'Parts')
        .map((p) => String(p.Value))
        .join('');
    else return undefined;
  }
  return { text, glob };
}

/** The files a word stands for, relative words against `cwd`; a glob as the shell would expand it. */
function filesOf(word: Word, cwd: string): string[] {
  if (!word.glob) return [resolve(cwd, word.text)];
  try {
    // Without globstar (bash's default) `**` is `*`: a glob never walks a tree.
    const matches = globSync(word.text.replace(/\*\*+/g, '*'), { cwd }).slice(0, MAX_GLOB_MATCHES);
    return matches.length ? matches.map((m) => resolve(cwd, m)) : [resolve(cwd, word.text)];
  } catch {
    return [];
  }
}

/** Options whose value is the next word, not a file (per program; `--name=value` needs none). */
const VALUE_OPTIONS: Record<string, readonly string[]> = {
  grep: ['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file'],
  egrep: ['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file'],
  fgrep: ['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file'],
  rg: ['-e', '-f', '-m', '-A', '-B', '-C', '-g', '-t', '--regexp', '--file', '--glob', '--type'],
  sed: ['-e', '-f', '--expression', '--file'],
  awk: ['-f', '-v', '-F', '--file'],
  gawk: ['-f', '-v', '-F', '--file'],
  head: ['-n', '-c'],
  tail: ['-n', '-c'],
  cut: ['-d', '-f', '-c', '-b'],
  sort: ['-k', '-t', '-o'],
};

/**
 * The operands of a command line (its words past the options, all of them after `--`) and its
 * options; the value of an option in `valued` is the option's.
 */
function operands(
  words: string[],
  valued: readonly string[] = [],
): { operands: string[]; options: string[] } {
  const out: string[] = [];
  const options: string[] = [];
  let ended = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!ended && w === '--') ended = true;
    else if (!ended && w.startsWith('-') && w !== '-') {
      options.push(w.replace(/=.*$/s, ''));
      if (valued.includes(w)) i++;
    } else out.push(w);
  }
  return { operands: out, options };
}

/** What one simple command names: `argv` its words (undefined for one only known at run time). */
function namedByCall(argv: Array<Word | undefined>): Named[] {
  let i = 0;
  while (i < argv.length && argv[i] && WRAPPERS.has(argv[i]!.text)) {
    i++;
    while (
      i < argv.length &&
      argv[i] &&
      (argv[i]!.text.startsWith('-') || /^[0-9.]+[smhd]?$/.test(argv[i]!.text))
    )
      i++;
  }
  const name = argv[i]?.text.split('/').pop();
  if (!name) return [];
  const known = argv.slice(i + 1).filter((w): w is Word => w !== undefined);
  const { operands: ops, options } = operands(
    known.map((w) => w.text),
    VALUE_OPTIONS[name],
  );
  const byText = new Map(known.map((w) => [w.text, w]));
  const word = (text: string) => byText.get(text) ?? { text, glob: false };
  const as = (tool: NamedPath['tool'], access: NamedPath['access']) => (text: string) => ({
    tool,
    access,
    word: word(text),
  });
  if (READERS.has(name)) return ops.map(as('Read', 'read'));
  if (WRITERS.has(name)) return ops.map(as('Write', 'write'));
  if (name === 'cp' || name === 'install' || name === 'ln')
    return ops.map((t, k) =>
      k === ops.length - 1 ? as('Write', 'write')(t) : as('Read', 'read')(t),
    );
  const search = SEARCHERS[name];
  if (search) {
    const files = options.some((o) => search.includes(o)) ? ops : ops.slice(1);
    const inPlace =
      name === 'sed' &&
      options.some((o) => o === '-i' || o === '--in-place' || /^-[a-zA-Z]*i/.test(o));
    return files.map(
      inPlace
        ? as('Write', 'write')
        : name === 'sed' || name.endsWith('awk')
          ? as('Read', 'read')
          : as('Grep', 'read'),
    );
  }
  if (LISTERS.has(name)) {
    // find's folders come before its expression.
    const end = name === 'find' ? known.findIndex((w) => /^[-(!]/.test(w.text)) : -1;
    const folders =
      name === 'find' ? known.slice(0, end < 0 ? undefined : end).map((w) => w.text) : ops;
    return folders.map(as('LS', 'read'));
  }
  if (name === 'dd')
    return known.flatMap((w) => {
      const m = /^(if|of)=(.+)$/s.exec(w.text);
      return m
        ? [
            {
              tool: m[1] === 'of' ? 'Write' : 'Read',
              access: m[1] === 'of' ? 'write' : 'read',
              word: { text: m[2]!, glob: false },
            } as const,
          ]
        : [];
    });
  return [];
}

/**
 * Every file `command` names for a file command or a redirection, relative paths against
 * `workspace` (or the folder an earlier `cd` in the command went to).
 * Contract: never throws; a command that does not parse names nothing here.
 */
export function bashFilePaths(command: string, workspace: string, home: string): NamedPath[] {
  const file = parseShell(command);
  if (!file) return [];
  const out: NamedPath[] = [];
  let cwd = workspace;
  const add = (tool: NamedPath['tool'], access: NamedPath['access'], word: Word) => {
    for (const path of filesOf(word, cwd)) out.push({ path, access, tool });
  };
  walkShell(file, (node) => {
    const type = nodeType(node);
    if (type === 'CallExpr') {
      const argv = list(node, 'Args').map((w) => wordText(w, home));
      if (argv[0]?.text === 'cd') {
        const dir = argv[1];
        if (dir && !dir.glob) cwd = isAbsolute(dir.text) ? dir.text : resolve(cwd, dir.text);
        return;
      }
      for (const n of namedByCall(argv)) add(n.tool, n.access, n.word);
    } else if (type === 'Redirect') {
      const op = node.Op as number;
      const target = child(node, 'Word');
      const word = target && wordText(target, home);
      if (!word || NOT_A_FILE.test(word.text)) return;
      const access = redirectAccess(op, word.text);
      if (access.writes) add('Write', 'write', word);
      if (access.reads) add('Read', 'read', word);
    }
  });
  return out;
}
