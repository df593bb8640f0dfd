/**
 * The files a configured process runs: a hook's command (`"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`,
 * `python3 tools/hook.py`) or an MCP server's program and arguments (`node ./server/index.js`). Hooks
 * and servers run outside the sandbox, so such a file inside the workspace is guarded as the protected
 * paths are (docs/security.md#programs-your-configuration-runs); a sandboxed hook gets it bound
 * readable. A best effort, read from the command's text: a word only known when it runs (`$(…)`, an
 * unknown variable) names nothing, and what a program opens by itself is not followed.
 */
import path from 'node:path';
import { realTargetSync } from './real-target.ts';
import { child, list, nodeType, parseShell, walkShell, type ShNode } from './shell-syntax.ts';

/** A process as its configuration gives it: a shell string, or a program with its arguments. */
export interface ConfiguredProcess {
  command: string;
  /** The exec form's arguments; absent for a shell string. */
  args?: readonly string[];
  shell: boolean;
  cwd: string;
}

/** A process the run's configuration starts outside the sandbox, and what starts it. */
export interface OutsideProcess {
  proc: ConfiguredProcess;
  /** Completes "<file> …": `is run outside the sandbox by a PreToolUse hook (.claude/settings.json)`. */
  why: string;
}

/** A file such a process runs, by its real path where it exists. */
export interface OutsideProgram {
  path: string;
  /** The path as the configuration names it, where a link leads from it to `path`. */
  named?: string;
  why: string;
}

/** Shells: their first operand is a script, or with `-c` a string of commands. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);
/** Programs whose first operand is the script they run (`python3 tools/hook.py`). */
const INTERPRETERS = new Set([
  ...SHELLS,
  'python',
  'python3',
  'node',
  'ruby',
  'perl',
  'php',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'uv',
]);
/** Subcommands some interpreters take before the script (`deno run -A x.ts`, `uv run x.py`). */
const RUN_SUBCOMMANDS = new Set(['run']);
/** Programs that run the command after them (`exec ./x`, `nice -n 5 ./x`). */
const WRAPPERS = new Set(['exec', 'command', 'nice', 'nohup', 'env', 'timeout', 'time']);

/**
 * The absolute paths of the files `proc` runs: each program named by a path (not looked up in
 * $PATH) and the script an interpreter is given, relative ones against `proc.cwd`; `~`, `$HOME` and
 * the project-dir variables expanded.
 */
export function programFiles(
  proc: ConfiguredProcess,
  vars: { home: string; workspace: string },
): string[] {
  const commands = proc.shell
    ? shellCommands(proc.command, vars)
    : [[proc.command, ...(proc.args ?? [])].map((w) => expandTilde(w, vars.home))];
  const shellString = (script: string): string[] =>
    shellCommands(script, vars).flatMap((words) => runWords(words, shellString));
  const files = new Set<string>();
  for (const words of commands) {
    for (const word of runWords(words, shellString)) files.add(path.resolve(proc.cwd, word));
  }
  return [...files];
}

/**
 * The files `processes` run, once each (the first process naming one says why), by real path.
 * Parses each shell string once; call it when the answer is needed, not at a run's start.
 */
export function outsidePrograms(
  processes: readonly OutsideProcess[],
  vars: { home: string; workspace: string },
): OutsideProgram[] {
  const out = new Map<string, OutsideProgram>();
  for (const { proc, why } of processes) {
    for (const file of programFiles(proc, vars)) {
      const real = realTargetSync(file, '/');
      if (!out.has(real))
        out.set(real, { path: real, ...(real !== file ? { named: file } : {}), why });
    }
  }
  return [...out.values()];
}

/** Of one simple command's words, the program (when given as a path) and the script it runs. */
function runWords(
  words: ReadonlyArray<string | undefined>,
  shellString: (script: string) => string[],
): string[] {
  let i = 0;
  // A wrapper's options and, for `timeout`, its duration come before the command it runs.
  while (words[i] !== undefined && WRAPPERS.has(path.basename(words[i]!))) {
    i++;
    while (
      words[i]?.startsWith('-') ||
      /^[0-9.]+[smhd]?$/.test(words[i] ?? '') ||
      words[i]?.includes('=')
    )
      i++;
  }
  const program = words[i];
  if (program === undefined) return [];
  const out = program.includes('/') ? [program] : [];
  if (!INTERPRETERS.has(path.basename(program))) return out;
  let j = i + 1;
  if (RUN_SUBCOMMANDS.has(words[j] ?? '')) j++;
  // `-m module`, `-c code`, `-e code`: no script file.
  for (; j < words.length; j++) {
    const w = words[j];
    if (w === undefined) return out;
    // `bash -c "…"`: the files the string runs.
    if (w === '-c' && SHELLS.has(path.basename(program)) && words[j + 1] !== undefined)
      return [...out, ...shellString(words[j + 1]!)];
    if (/^-[cem]$/.test(w)) return out;
    if (!w.startsWith('-')) return [...out, w];
  }
  return out;
}

/** Each simple command of a shell string, as its words (undefined where only known at run time). */
function shellCommands(
  command: string,
  vars: { home: string; workspace: string },
): Array<Array<string | undefined>> {
  const file = parseShell(command);
  if (!file) return [];
  const out: Array<Array<string | undefined>> = [];
  walkShell(file, (node) => {
    if (nodeType(node) === 'CallExpr') out.push(list(node, 'Args').map((w) => wordText(w, vars)));
  });
  return out;
}

const KNOWN_VARS = ['CLAUDE_PROJECT_DIR', 'WORKBENCH_PROJECT_DIR', 'HOME'] as const;

/** A word's text after quote removal and expansion of the known variables, or undefined. */
function wordText(word: ShNode, vars: { home: string; workspace: string }): string | undefined {
  const value = (name: string): string | undefined =>
    name === 'HOME'
      ? vars.home
      : (KNOWN_VARS as readonly string[]).includes(name)
        ? vars.workspace
        : undefined;
  const partText = (part: ShNode, first: boolean): string | undefined => {
    switch (nodeType(part)) {
      case 'Lit': {
        const lit = String(part.Value);
        return first ? expandTilde(lit, vars.home) : lit;
      }
      case 'SglQuoted':
        return part.Dollar ? undefined : String(part.Value);
      case 'ParamExp': {
        // Only a plain `$NAME` / `${NAME}`: an operator (`${X:-y}`, `${#X}`) makes it unknown.
        if (
          part.Excl ||
          part.Length ||
          child(part, 'Exp') ||
          child(part, 'Repl') ||
          child(part, 'Index')
        )
          return undefined;
        return value(String(child(part, 'Param')?.Value ?? ''));
      }
      case 'DblQuoted': {
        let text = '';
        for (const p of list(part, 'Parts')) {
          const t = partText(p, false);
          if (t === undefined) return undefined;
          text += t;
        }
        return text;
      }
      default:
        return undefined;
    }
  };
  let text = '';
  for (const [i, part] of list(word, 'Parts').entries()) {
    const t = partText(part, i === 0);
    if (t === undefined) return undefined;
    text += t;
  }
  return text;
}

function expandTilde(word: string, home: string): string {
  return word === '~' || word.startsWith('~/') ? home + word.slice(1) : word;
}
