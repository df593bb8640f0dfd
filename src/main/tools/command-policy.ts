/**
 * The command policy: which `execute` commands need a person's approval whatever the approval mode.
 * It reads a real bash parse of the command (shell-syntax.ts), never the text, so quoting, escapes and
 * line breaks cannot hide a command. Outside the OS sandbox only plain commands pass: words, pipes
 * between ordinary programs, `&&`/`||`/`;` lists. docs/security.md says exactly what each rule covers.
 */
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { protectedPathWhy, protectedThroughLink } from './protected-paths.ts';
import type { OutsideProgram } from './program-files.ts';
import { userDirs } from './user-dirs.ts';
import {
  NOT_A_FILE,
  SH_OP,
  child,
  list,
  nodeKey,
  nodeType,
  parseShell,
  redirectAccess,
  walkShell,
  type ShNode,
} from './shell-syntax.ts';

/** What the policy knows about where the command will run. */
export interface CommandPolicyContext {
  workspaceRoot: string;
  /** Working directories added to the workspace (`--add-dir`): written and deleted in as it is. */
  extraRoots?: readonly string[];
  /** The user's home folder (`~`, `$HOME`). */
  home: string;
  /** True when the command runs in the OS sandbox (workspace-only writes, secrets hidden). */
  sandboxed: boolean;
  /** True when the sandbox lets the command use the network. */
  network?: boolean;
  /** Files the run's hooks and servers run outside the sandbox (`Workspace.programs`). */
  programs?: readonly OutsideProgram[];
  /**
   * The settings file whose `permissions.blockReadsOutsideWorkingDirectories` keeps reads in the
   * user folders to the working directories: naming a file elsewhere there needs a person.
   */
  readsKeptBy?: string;
}

/** `allow`: the approval mode decides; `ask`: a person approves this exact command, in every mode. */
export interface CommandVerdict {
  verdict: 'allow' | 'ask';
  reasons: string[];
}

/** More commands than a person reads at a glance. */
const MAX_COMMANDS = 20;

const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'busybox',
  'yash',
]);
/** Interpreters and the options that hand them code on the command line. */
const INTERPRETERS: ReadonlyArray<[RegExp, string[]]> = [
  [/^(python|pypy)[0-9.]*$/, ['-c']],
  [/^(node|nodejs|bun)$/, ['-e', '--eval', '-p', '--print']],
  [/^deno$/, ['eval']],
  [/^perl[0-9.]*$/, ['-e', '-E']],
  [/^ruby[0-9.]*$/, ['-e']],
  [/^php[0-9.]*$/, ['-r', '-B', '-R', '-E', '-F']],
  [/^(lua|luajit)[0-9.]*$/, ['-e']],
  [/^(osascript|rscript|julia|expect)$/i, ['-e', '-c']],
  [/^(pwsh|powershell)(\.exe)?$/i, ['-c', '-command', '-e', '-ec', '-encodedcommand']],
  [/^(tclsh|wish|irb|jshell|groovy)$/, []],
];
/** Options of interpreters that take a value (so the value is not mistaken for the script). */
const INTERPRETER_VALUE_OPTIONS = new Set([
  '-W',
  '-X',
  '-O',
  '-o',
  '-r',
  '--require',
  '-I',
  '--import',
  '--loader',
]);
/** Commands that run the rest of their arguments as a command (options skipped, see `unwrap`). */
const WRAPPERS = new Set([
  'env',
  'command',
  'builtin',
  'nohup',
  'nice',
  'time',
  'timeout',
  'stdbuf',
  'setsid',
  'ionice',
  'chrt',
  'taskset',
  'xargs',
  'strace',
  'ltrace',
  'unbuffer',
  'flock',
  'caffeinate',
  'sudo',
  'doas',
  'run0',
  'pkexec',
  'chroot',
  'nsenter',
  'setpriv',
  'runuser',
  'firejail',
]);
/** Wrapper options whose value is the next word. */
const WRAPPER_VALUE_OPTIONS = new Set([
  '-u',
  '-C',
  '-n',
  '-s',
  '-k',
  '-o',
  '-e',
  '-i',
  '-E',
  '-I',
  '-L',
  '-P',
  '-d',
  '-a',
  '-g',
  '-p',
  '-c',
  '-U',
  '-D',
  '-r',
  '-t',
  '-h',
  '-w',
  '--signal',
  '--kill-after',
  '--user',
  '--group',
  '--chdir',
  '--unset',
]);
const PRIVILEGED = new Set([
  'sudo',
  'doas',
  'su',
  'pkexec',
  'run0',
  'runuser',
  'chroot',
  'nsenter',
  'setpriv',
  'capsh',
  'machinectl',
  'systemd-run',
]);
/** Builtins that run a string or a file as shell code, or change what a command name means. */
const SHELL_CODE_BUILTINS = new Set([
  'eval',
  'exec',
  'source',
  '.',
  'trap',
  'alias',
  'enable',
  'hash',
  'bind',
  'complete',
  'compgen',
  'fc',
  'watch',
]);
/** Builtins that evaluate array subscripts or arithmetic in their arguments (bash runs `a[$(…)]`). */
const EVALUATING_BUILTINS = new Set([
  'printf',
  'read',
  'unset',
  'test',
  '[',
  'mapfile',
  'readarray',
  'getopts',
  'let',
  'wait',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
]);
const DELETERS = new Set(['rm', 'rmdir', 'shred', 'unlink', 'truncate', 'srm', 'wipe']);
/** Commands that write the paths they are given (the last one for copy-like commands). */
const WRITERS = new Set([
  'tee',
  'touch',
  'mkdir',
  'chmod',
  'chown',
  'chgrp',
  'patch',
  'ln',
  'cp',
  'mv',
  'install',
  'rsync',
]);
const COPY_LIKE = new Set(['cp', 'mv', 'ln', 'install', 'rsync']);
/** Commands that only read: naming a protected path is fine for them. */
const READERS = new Set([
  'cat',
  'less',
  'more',
  'head',
  'tail',
  'wc',
  'ls',
  'stat',
  'file',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'diff',
  'cmp',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'echo',
  'printf',
  'realpath',
  'readlink',
  'basename',
  'dirname',
  'du',
  'tree',
  'test',
  '[',
  'git',
  'find',
  'cd',
  'pushd',
]);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'xh']);
const MACHINE_STOPPERS = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
/** Environment variables that load code into the commands that follow. */
const CODE_LOADING_ENV =
  /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_[A-Z_]+|BASH_ENV|ENV|PROMPT_COMMAND|GIT_CONFIG_[A-Z_0-9]+|GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_DIR|NODE_OPTIONS|PYTHONSTARTUP|PERL5OPT|RUBYOPT)$/;
/** git configuration keys whose values git runs as programs or that move the hooks or config. */
const GIT_CODE_KEYS =
  /^(core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|worktree)|alias\..*|include\..*|includeif\..*|filter\..*|diff\..*|merge\..*|credential\..*|sequence\.editor|uploadpack\..*|receivepack\..*|protocol\..*|remote\..*\.(uploadpack|receivepack|proxy)|.*\.(command|cmd|textconv|helper|program|tool|driver|process|clean|smudge|sshcommand|editor|pager))$/i;
/** Files under $HOME that hold credentials (also hidden by the sandbox). */
const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.docker/config.json',
  '.kube',
  '.git-credentials',
  '.config/gcloud',
  '.azure',
  '.workbench',
];
/** Placeholder for the part of a word only known when it runs. */
const DYNAMIC = '\u0000';

interface Arg {
  /** The word after quote removal, with DYNAMIC for expansions. */
  text: string;
  /** True when some part is only known at run time (expansions, brace lists, `~user`). */
  dynamic: boolean;
  /** True when quotes or backslashes change how the word reads. */
  disguised: boolean;
  /** True when the word is an unquoted glob. */
  glob: boolean;
}

interface State {
  ctx: CommandPolicyContext;
  reasons: Set<string>;
  /** Unsandboxed-only reasons (the sandbox already contains what they guard against). */
  plain: Set<string>;
  /** The folders relative paths may resolve against (`undefined`: unknown). */
  cwds: Set<string | undefined>;
  /** Keys (`nodeKey`) of the commands that read a pipe. */
  pipedInto: Set<string>;
  downloads: boolean;
  runsCode: boolean;
  commands: number;
  /** The workspace's real path, then the added working directories'. */
  realRoots: string[];
}

/**
 * Decides whether a command may follow the approval mode or always needs a person.
 * Contract: never throws; a command the parser cannot read gets `ask`; with `sandboxed` only the
 * rules the sandbox cannot contain apply (force pushes, privilege escalation, uploads and
 * download-and-run when the network is open, machine-wide damage).
 */
export function commandPolicy(command: string, ctx: CommandPolicyContext): CommandVerdict {
  const file = parseShell(command);
  if (!file)
    return {
      verdict: 'ask',
      reasons: ['this command could not be parsed as shell, so it cannot be checked'],
    };
  const st: State = {
    ctx,
    reasons: new Set(),
    plain: new Set(),
    cwds: new Set([ctx.workspaceRoot]),
    pipedInto: new Set(),
    downloads: false,
    runsCode: false,
    commands: 0,
    realRoots: [ctx.workspaceRoot, ...(ctx.extraRoots ?? [])].map(realOrSelf),
  };
  walkShell(file, (node) => visit(st, node));
  const networked = !ctx.sandboxed || ctx.network === true;
  if (st.downloads && st.runsCode && networked)
    st.reasons.add('this command downloads code and runs it');
  if (st.commands > MAX_COMMANDS)
    st.reasons.add(`this command runs more than ${MAX_COMMANDS} commands`);
  const reasons = [...st.reasons, ...(ctx.sandboxed ? [] : st.plain)];
  return { verdict: reasons.length ? 'ask' : 'allow', reasons };
}

function visit(st: State, node: ShNode): void {
  switch (nodeType(node)) {
    case 'BinaryCmd': {
      const op = node.Op;
      if (op === SH_OP.pipe || op === SH_OP.pipeAll) {
        const y = child(node, 'Y');
        if (y) walkShell(y, (n) => nodeType(n) === 'CallExpr' && st.pipedInto.add(nodeKey(n)));
      }
      return;
    }
    case 'CmdSubst':
      st.plain.add('this command runs a command substitution ($(…) or `…`)');
      return;
    case 'ProcSubst':
      st.plain.add('this command runs a process substitution (<(…) or >(…))');
      return;
    case 'FuncDecl':
      st.reasons.add('this command defines a shell function (it can stand in for any command)');
      return;
    case 'CoprocClause':
      st.plain.add('this command starts a coprocess');
      return;
    case 'ArithmExp':
    case 'ArithmCmd':
    case 'LetClause':
    case 'TestClause':
      if (usesVariables(node))
        st.plain.add(
          'this command evaluates variables as arithmetic or tests (bash can run code hidden in them)',
        );
      return;
    case 'ParamExp':
      checkParamExp(st, node);
      return;
    case 'DeclClause':
      checkDecl(st, node);
      return;
    case 'CallExpr':
      checkCallExpr(st, node);
      return;
    case 'Redirect':
      checkRedirect(st, node);
      return;
  }
}

function usesVariables(node: ShNode): boolean {
  let found = false;
  walkShell(node, (n) => {
    const type = nodeType(n);
    if (type === 'ParamExp' || (type === 'Lit' && /^[A-Za-z_]/.test(String(n.Value)))) found = true;
  });
  // `[[ -f name ]]` names no variable; only expansions reach bash's evaluator there.
  if (nodeType(node) === 'TestClause') {
    found = false;
    walkShell(node, (n) => {
      if (nodeType(n) === 'ParamExp') found = true;
    });
  }
  return found;
}

function checkParamExp(st: State, node: ShNode): void {
  const exp = child(node, 'Exp');
  if (exp && exp.Op === SH_OP.paramTransform && /P/.test(wordText(child(exp, 'Word'))))
    st.plain.add('this command expands a prompt string (${x@P} runs substitutions)');
  if (node.Excl || child(node, 'Index'))
    st.plain.add(
      'this command uses indirect or subscripted expansions (bash can run code hidden in them)',
    );
}

function checkDecl(st: State, node: ShNode): void {
  for (const assign of list(node, 'Args')) checkAssign(st, assign);
}

function checkAssign(st: State, assign: ShNode): void {
  const name = String(child(assign, 'Name')?.Value ?? '');
  if (CODE_LOADING_ENV.test(name))
    st.plain.add(`this command sets ${name}, which loads code into the commands that follow`);
  const value = child(assign, 'Value');
  if (value && /\$\(|`|\$\{/.test(argOf(st, value).text))
    st.plain.add('this command stores shell code in a variable');
  if (!name && value && /\[/.test(argOf(st, value).text))
    st.plain.add('this command declares a name with a subscript (bash evaluates it)');
}

function checkCallExpr(st: State, node: ShNode): void {
  for (const assign of list(node, 'Assigns')) checkAssign(st, assign);
  const words = list(node, 'Args');
  if (!words.length) return;
  st.commands++;
  const args = words.map((w) => argOf(st, w));
  checkArgv(st, args, { piped: st.pipedInto.has(nodeKey(node)), fromInput: false });
}

interface CallFacts {
  piped: boolean;
  /** True when the arguments are completed from standard input (xargs). */
  fromInput: boolean;
}

function checkArgv(st: State, args: Arg[], facts: CallFacts): void {
  const [first, ...rest] = args;
  if (!first) return;
  if (first.dynamic) {
    st.plain.add(
      'the command name comes from an expansion, so what runs is only known when it runs',
    );
    return;
  }
  if (first.disguised)
    st.plain.add(`the command name ${show(first)} is written with quotes or backslashes`);
  const name = basename(first.text);
  if (first.text.includes('/')) st.runsCode = true;
  for (const arg of args) checkSecret(st, arg);

  if (PRIVILEGED.has(name)) st.reasons.add(`this command runs with raised privileges (${name})`);
  if (name === 'su') {
    checkCodeOption(st, name, rest, ['-c', '--command']);
    return;
  }
  if (WRAPPERS.has(name)) return unwrap(st, name, rest, facts);
  if (SHELL_CODE_BUILTINS.has(name))
    st.plain.add(`this command uses ${name}, which runs text as shell code`);
  if (EVALUATING_BUILTINS.has(name) && rest.some((a) => /\$\(|`|\[/.test(a.text)))
    st.plain.add(`this command passes a subscript or shell code to ${name}, which bash evaluates`);
  if (
    MACHINE_STOPPERS.has(name) ||
    (name === 'systemctl' && rest.some((a) => /^(poweroff|reboot|halt|kexec)$/.test(a.text))) ||
    (name === 'init' && /^[06]$/.test(rest[0]?.text ?? ''))
  )
    st.reasons.add('this command stops the machine');
  if (/^mkfs(\.|$)|^(mke2fs|mkswap|wipefs|fdisk|parted|sfdisk)$/.test(name))
    st.reasons.add('this command formats or repartitions a disk');
  if (SHELLS.has(name) || INTERPRETERS.some(([re]) => re.test(name)))
    return checkInterpreter(st, name, rest, facts);
  if (/^[gnm]?awk$/.test(name)) return checkAwk(st, rest);
  if (name === 'sed') checkSed(st, rest);
  if (name === 'git') return checkGit(st, rest);
  if (name === 'find') return checkFind(st, rest, facts);
  if (name === 'cd' || name === 'pushd' || name === 'popd') return changeDir(st, name, rest);
  if (DOWNLOADERS.has(name)) {
    st.downloads = true;
    checkUploads(st, rest, facts);
  }
  if (name === 'chmod') st.runsCode = true;
  if (DELETERS.has(name)) return checkDelete(st, name, operands(rest), facts);
  if (name === 'dd') {
    const of = rest.find((a) => a.text.startsWith('of='));
    if (of) checkWrite(st, name, { ...of, text: of.text.slice(3) });
    return;
  }
  if (WRITERS.has(name)) {
    const ops = operands(rest);
    const targets = COPY_LIKE.has(name) ? targetOf(rest, ops) : ops;
    for (const t of targets) checkWrite(st, name, t);
    if (facts.fromInput) st.plain.add(`this command's ${name} targets come from its input`);
  }
  if (!READERS.has(name)) for (const arg of rest) checkProtectedOperand(st, name, arg);
}

function unwrap(st: State, name: string, rest: Arg[], facts: CallFacts): void {
  let i = 0;
  for (; i < rest.length; i++) {
    const t = rest[i].text;
    if (
      name === 'env' &&
      (t === '-S' || t.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(t))
    ) {
      st.plain.add('this command uses env -S, which splits a string into a command');
      return;
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      const envName = t.slice(0, t.indexOf('='));
      if (CODE_LOADING_ENV.test(envName))
        st.plain.add(`this command sets ${envName}, which loads code into the command it runs`);
      continue;
    }
    if (t === '--') {
      i++;
      break;
    }
    if (!t.startsWith('-') || t === '-') break;
    if (WRAPPER_VALUE_OPTIONS.has(t) && name !== 'nohup') i++;
  }
  // Positional values before the command: timeout's duration, flock's lock file, taskset's mask, chrt's priority, nsenter/chroot's root.
  if (['timeout', 'flock', 'taskset', 'chrt', 'chroot'].includes(name)) i++;
  const inner = rest.slice(i);
  if (name === 'xargs' && !inner.length) return;
  checkArgv(st, inner, { piped: facts.piped, fromInput: facts.fromInput || name === 'xargs' });
}

function checkCodeOption(st: State, name: string, rest: Arg[], codeOptions: string[]): boolean {
  for (const a of rest) {
    if (a.text === '--') break;
    const lower = a.text.toLowerCase();
    const cluster = /^-[a-zA-Z]+$/.test(a.text) && !a.text.startsWith('--');
    if (
      codeOptions.includes(lower) ||
      (cluster && codeOptions.some((o) => o.length === 2 && a.text.slice(1).includes(o[1])))
    ) {
      st.plain.add(`this command hands ${name} code on the command line (${a.text})`);
      return true;
    }
  }
  return false;
}

function checkInterpreter(st: State, name: string, rest: Arg[], facts: CallFacts): void {
  st.runsCode = true;
  const codeOptions = SHELLS.has(name)
    ? ['-c']
    : (INTERPRETERS.find(([re]) => re.test(name))?.[1] ?? []);
  if (checkCodeOption(st, name, rest, codeOptions)) return;
  if (
    SHELLS.has(name) &&
    rest.some((a) => /^-[a-zA-Z]*s/.test(a.text) && !a.text.startsWith('--'))
  ) {
    st.plain.add(`this command feeds ${name} a script from its input`);
    return;
  }
  let script: Arg | undefined;
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i].text;
    if (t === '-m' && /^(python|pypy)/.test(name)) return;
    if (t === '-' || t === '--') {
      script = t === '-' ? rest[i] : rest[i + 1];
      break;
    }
    if (t.startsWith('-')) {
      if (INTERPRETER_VALUE_OPTIONS.has(t)) i++;
      continue;
    }
    script = rest[i];
    break;
  }
  if (
    !script ||
    script.text === '-' ||
    /^\/(dev\/(stdin|fd\/)|proc\/[^/]+\/fd\/)/.test(script.text)
  ) {
    st.plain.add(
      facts.piped
        ? `this command pipes into an interpreter (${name})`
        : `this command runs ${name} on code from its input`,
    );
    return;
  }
  if (script.dynamic) st.plain.add(`this command runs ${name} on a script only known when it runs`);
}

function checkAwk(st: State, rest: Arg[]): void {
  if (rest.some((a) => a.text === '-f' || a.text.startsWith('--file'))) return;
  const program = rest.find((a) => !a.text.startsWith('-'));
  if (program && /system|getline|\|/.test(program.text))
    st.plain.add('this command gives awk a program that runs commands');
}

function checkSed(st: State, rest: Arg[]): void {
  const scripts = rest.filter((a, i) => !a.text.startsWith('-') || rest[i - 1]?.text === '-e');
  if (
    scripts.some((s) =>
      /(^|[;{}\n])\s*[0-9$,/]*[^;{}\n]*?\b[ewW]\s|\/[gpiImM0-9]*[ewW][gpiImM0-9]*\s*($|[;}\s])/.test(
        s.text,
      ),
    )
  )
    st.plain.add('this command gives sed a script that runs commands or writes files');
}

function checkGit(st: State, rest: Arg[]): void {
  let i = 0;
  for (; i < rest.length; i++) {
    const t = rest[i].text;
    if (t === '-c' || t === '--config-env') {
      checkGitKey(st, rest[++i]?.text ?? '', true);
      continue;
    }
    if (t.startsWith('--config-env=')) {
      checkGitKey(st, t.slice('--config-env='.length), true);
      continue;
    }
    if (['-C', '--git-dir', '--work-tree', '--namespace'].includes(t)) {
      i++;
      continue;
    }
    if (!t.startsWith('-')) break;
  }
  const sub = rest[i]?.text;
  const subArgs = rest.slice(i + 1);
  for (const a of subArgs)
    if (/^(--exec|--upload-pack|--receive-pack|--extcmd|-x$)|^ext::/.test(a.text))
      st.plain.add(`this command hands git a program to run (${a.text})`);
  if (sub === 'submodule' && subArgs.some((a) => a.text === 'foreach'))
    st.plain.add('this command runs a shell string in every submodule');
  if (sub === 'config') {
    if (subArgs.some((a) => ['--global', '--system', '--file', '-f'].includes(a.text)))
      st.plain.add('this command changes git configuration outside the workspace');
    for (const a of subArgs) if (!a.text.startsWith('-')) checkGitKey(st, a.text, false);
  }
  if (sub === 'push') checkPush(st, subArgs);
}

function checkGitKey(st: State, arg: string, withValue: boolean): void {
  const key = withValue ? arg.split('=')[0] : arg;
  if (GIT_CODE_KEYS.test(key))
    st.plain.add(`this command sets git's ${key}, which makes git run programs`);
}

function checkPush(st: State, args: Arg[]): void {
  const positional: Arg[] = [];
  for (const a of args) {
    const t = a.text;
    if (
      /^--(force|force-with-lease|force-if-includes|mirror|delete|prune)(=|$)/.test(t) ||
      (/^-[a-zA-Z]*[fd]/.test(t) && !t.startsWith('--'))
    ) {
      st.reasons.add(`this command force-pushes or deletes remote branches (${t})`);
      return;
    }
    if (!t.startsWith('-')) positional.push(a);
  }
  for (const refspec of positional.slice(1)) {
    if (refspec.text.startsWith('+') || refspec.text.startsWith(':') || refspec.dynamic) {
      st.reasons.add(`this command force-pushes or deletes remote branches (${show(refspec)})`);
      return;
    }
  }
}

function checkFind(st: State, rest: Arg[], facts: CallFacts): void {
  const firstExpr = rest.findIndex((a) => /^[-(!)]/.test(a.text));
  const roots = (firstExpr < 0 ? rest : rest.slice(0, firstExpr)).filter((a) => a.text !== '');
  const searchRoots = roots.length ? roots : [literal('.')];
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i].text;
    if (t === '-delete') checkDelete(st, 'find -delete', searchRoots, facts, true);
    if (/^-(fprint|fprintf|fls|fprint0)$/.test(t) && rest[i + 1])
      checkWrite(st, 'find', rest[i + 1]);
    if (/^-(exec|execdir|ok|okdir)$/.test(t)) {
      const end = rest.findIndex((a, j) => j > i && (a.text === ';' || a.text === '+'));
      const sub = rest.slice(i + 1, end < 0 ? undefined : end);
      // `{}` stands for each path found under a root, never the root's parent.
      const found = searchRoots.map((r) => ({ ...r, text: `${r.text.replace(/\/+$/, '')}/{}` }));
      const expanded = sub.flatMap((a) => (a.text === '{}' ? found : [a]));
      checkArgv(st, expanded, { piped: false, fromInput: false });
      if (end > 0) i = end;
    }
  }
}

function changeDir(st: State, name: string, rest: Arg[]): void {
  const target = operands(rest)[0];
  if (name === 'popd' || (target && (target.dynamic || target.text === '-'))) {
    st.cwds.add(undefined);
    return;
  }
  const next = target ? target.text : st.ctx.home;
  for (const cwd of [...st.cwds])
    st.cwds.add(isAbsolute(next) ? next : cwd === undefined ? undefined : resolve(cwd, next));
}

function checkUploads(st: State, rest: Arg[], facts: CallFacts): void {
  if (st.ctx.sandboxed && !st.ctx.network) return;
  const valueOpts =
    /^(-d|--data|--data-binary|--data-ascii|--data-urlencode|--json|-F|--form|-T|--upload-file|-K|--config|--post-file|--body-file)$/;
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i].text;
    let opt: string | undefined;
    let value: Arg | undefined;
    const eq = t.indexOf('=');
    if (valueOpts.test(t)) [opt, value] = [t, rest[++i]];
    else if (t.startsWith('--') && eq > 0 && valueOpts.test(t.slice(0, eq)))
      [opt, value] = [t.slice(0, eq), { ...rest[i], text: t.slice(eq + 1) }];
    else if (/^-[dFTK]./.test(t)) [opt, value] = [t.slice(0, 2), { ...rest[i], text: t.slice(2) }];
    if (!opt || !value) continue;
    const file = uploadedFile(opt, value.text);
    if (file === undefined) continue;
    if (file === '-') {
      if (facts.piped)
        st.reasons.add(`this command uploads what is piped into it (${opt} ${show(value)})`);
      continue;
    }
    // curl does not expand `~`, but a shell wrapper or a later edit may: read it as home.
    const path = {
      ...value,
      text: file.startsWith('~/') ? join(st.ctx.home, file.slice(2)) : file,
    };
    if (path.dynamic || !insideWorkspace(st, path))
      st.reasons.add(
        `this command uploads a file from outside the workspace (${opt} ${show(value)})`,
      );
  }
}

/** The file an upload option sends, or undefined when it sends literal text. */
function uploadedFile(opt: string, value: string): string | undefined {
  if (['-T', '--upload-file', '-K', '--config', '--post-file', '--body-file'].includes(opt))
    return value;
  if (opt === '-F' || opt === '--form') {
    const m = /^[^=]*=[@<]([^;]*)/.exec(value);
    return m ? m[1] : undefined;
  }
  if (opt === '--data-urlencode') {
    const at = value.indexOf('@');
    return at >= 0 && !value.slice(0, at).includes('=') ? value.slice(at + 1) : undefined;
  }
  return value.startsWith('@') ? value.slice(1) : undefined;
}

/** `contentsOnly`: the command deletes what is under each target, not the target (find -delete). */
function checkDelete(
  st: State,
  name: string,
  targets: Arg[],
  facts: CallFacts,
  contentsOnly = false,
): void {
  if (facts.fromInput) st.plain.add(`this command deletes paths named by its input (${name})`);
  for (const t of targets) {
    if (t.dynamic) {
      st.plain.add(`this command deletes ${show(t)}, a path only known when it runs`);
      continue;
    }
    for (const abs of resolveArg(st, t)) {
      const real = abs === undefined ? undefined : realPath(abs);
      if (real === undefined) {
        st.plain.add(
          `this command deletes ${show(t)} after changing to a folder only known when it runs`,
        );
      } else if (isWithin(realOrSelf(st.ctx.home), real)) {
        st.reasons.add(`this command deletes your home folder or everything (${show(t)})`);
      } else if (real === st.realRoots[0] && !contentsOnly) {
        st.reasons.add('this command deletes the whole workspace');
      } else if (st.realRoots.includes(real) && !contentsOnly) {
        st.reasons.add(`this command deletes a whole working directory (${show(t)})`);
      } else if (!rootHolding(st, real) || (t.glob && /(^|\/)\.[*?[]/.test(t.text))) {
        st.plain.add(`this command deletes ${show(t)}, outside the workspace`);
      } else checkProtectedOperand(st, name, t);
    }
  }
}

function checkWrite(st: State, name: string, target: Arg): void {
  if (target.dynamic) {
    st.plain.add(`this command's ${name} writes ${show(target)}, a path only known when it runs`);
    return;
  }
  if (NOT_A_FILE.test(target.text)) return;
  for (const abs of resolveArg(st, target)) {
    if (abs === undefined)
      st.plain.add(
        `this command writes ${show(target)} after changing to a folder only known when it runs`,
      );
    else if (!insideRealRoot(st, abs) && !inTmp(abs))
      st.plain.add(`this command writes outside the workspace (${show(target)})`);
  }
  checkProtectedOperand(st, name, target);
}

function checkProtectedOperand(st: State, name: string, arg: Arg): void {
  if (arg.dynamic || arg.text.startsWith('-')) return;
  const text =
    arg.text.includes('=') && !arg.text.startsWith('/')
      ? arg.text.slice(arg.text.indexOf('=') + 1)
      : arg.text;
  for (const abs of resolveArg(st, { ...arg, text })) {
    if (abs === undefined) continue;
    const real = realPath(abs);
    const root = rootHolding(st, real);
    if (root === undefined) continue;
    const rel = relative(root, real).split(sep).join('/');
    const linked = st.realRoots
      .map((r) => protectedThroughLink(real, r))
      .find((r) => r !== undefined);
    if (linked) {
      st.plain.add(`this command's ${name} touches ${linked}`);
      continue;
    }
    const why =
      protectedPathWhy(rel) ??
      (root === st.realRoots[0]
        ? protectedPathWhy(relative(st.ctx.workspaceRoot, abs).split(sep).join('/'))
        : undefined) ??
      st.ctx.programs?.find((p) => isWithin(real, p.path))?.why;
    if (why) st.plain.add(`this command's ${name} touches ${rel}, which ${why}`);
  }
}

function checkSecret(st: State, arg: Arg): void {
  if (
    /^\/proc\//.test(arg.text) &&
    (arg.text.includes(DYNAMIC) ||
      /\/(environ|mem|maps|cmdline|root|cwd|fd)\b|^\/proc\/(self|[0-9]+)\/?$/.test(arg.text))
  ) {
    st.plain.add(`this command reads process state under /proc (${show(arg)})`);
    return;
  }
  if (arg.dynamic) return;
  const text = arg.text.startsWith('@') ? arg.text.slice(1) : arg.text;
  if (!text.includes('/') && !text.startsWith('.')) return;
  for (const abs of resolveArg(st, { ...arg, text })) {
    if (abs === undefined) continue;
    const real = realPath(abs);
    for (const secret of HOME_SECRETS) {
      const dir = join(st.ctx.home, secret);
      if (isWithin(abs, dir) || isWithin(real, realPath(dir)))
        st.plain.add(`this command names ${show(arg)}, which holds credentials`);
    }
    if (
      st.ctx.readsKeptBy &&
      !insideRealRoot(st, abs) &&
      userDirs(st.ctx.home).some((d) => isWithin(real, realOrSelf(d)))
    )
      st.plain.add(
        `this command reads ${show(arg)}, outside the working directories (permissions.blockReadsOutsideWorkingDirectories in ${st.ctx.readsKeptBy})`,
      );
  }
}

function checkRedirect(st: State, node: ShNode): void {
  const op = node.Op as number;
  const word = child(node, 'Word');
  if (!word) return;
  const target = argOf(st, word);
  const access = redirectAccess(op, target.text);
  if (access.writes) checkWrite(st, 'redirection', target);
  if (access.reads) checkSecret(st, target);
}

/** The word as text after quote removal; expansions become DYNAMIC. */
function argOf(st: State, word: ShNode): Arg {
  const arg: Arg = { text: '', dynamic: false, disguised: false, glob: false };
  const parts = list(word, 'Parts');
  parts.forEach((part, i) => {
    const type = nodeType(part);
    if (type === 'Lit') {
      let value = String(part.Value);
      if (i === 0 && value.startsWith('~')) {
        const m = /^~([^/]*)(.*)$/s.exec(value)!;
        if (m[1]) arg.dynamic = true;
        else value = st.ctx.home + m[2];
      }
      if (value.includes('\\')) arg.disguised = true;
      if (/(^|[^\\])[*?[]/.test(value)) arg.glob = true;
      if (/\{[^}]*(,|\.\.)[^}]*\}/.test(value)) arg.dynamic = true;
      arg.text += value.replace(/\\(.)/gs, '$1').replace(/\\\n/g, '');
    } else if (type === 'SglQuoted') {
      arg.disguised = true;
      if (part.Dollar) arg.dynamic = true;
      arg.text += String(part.Value);
    } else if (type === 'DblQuoted') {
      arg.disguised = true;
      const inner = argOf(st, part);
      arg.dynamic ||= inner.dynamic;
      arg.text += inner.text;
    } else if (type === 'ParamExp') {
      const known = simpleParam(st, part);
      if (known === undefined) {
        arg.dynamic = true;
        arg.text += DYNAMIC;
      } else arg.text += known;
    } else {
      arg.dynamic = true;
      arg.text += DYNAMIC;
    }
  });
  return arg;
}

/** `$HOME` / `${HOME}` as the home folder; any other expansion is unknown. */
function simpleParam(st: State, part: ShNode): string | undefined {
  const simple =
    !child(part, 'Exp') &&
    !child(part, 'Repl') &&
    !child(part, 'Index') &&
    !child(part, 'Slice') &&
    !part.Excl &&
    !part.Length;
  const name = String(child(part, 'Param')?.Value ?? '');
  if (simple && name === 'HOME') return st.ctx.home;
  return undefined;
}

function wordText(word: ShNode | undefined): string {
  return list(word, 'Parts')
    .map((p) => String(p.Value ?? ''))
    .join('');
}

function literal(text: string): Arg {
  return { text, dynamic: false, disguised: false, glob: false };
}

/** The non-option arguments (everything after `--`). */
function operands(args: Arg[]): Arg[] {
  const i = args.findIndex((a) => a.text === '--');
  const before = (i < 0 ? args : args.slice(0, i)).filter(
    (a) => !a.text.startsWith('-') || a.text === '-',
  );
  return i < 0 ? before : [...before, ...args.slice(i + 1)];
}

/** Where copy-like commands write: `-t DIR` or the last operand. */
function targetOf(args: Arg[], ops: Arg[]): Arg[] {
  const t = args.findIndex((a) => a.text === '-t' || a.text === '--target-directory');
  if (t >= 0 && args[t + 1]) return [args[t + 1]];
  const attached = args.find((a) => a.text.startsWith('--target-directory='));
  if (attached) return [{ ...attached, text: attached.text.slice('--target-directory='.length) }];
  return ops.length > 1 ? [ops[ops.length - 1]] : ops;
}

/** The absolute paths an argument may name, one per possible working folder (undefined: unknown). */
function resolveArg(st: State, arg: Arg): Array<string | undefined> {
  const text = arg.text.replace(/\/+$/, '') || '/';
  if (isAbsolute(text)) return [resolve(text)];
  return [...st.cwds].map((cwd) => (cwd === undefined ? undefined : resolve(cwd, text)));
}

function insideRealRoot(st: State, abs: string): boolean {
  return rootHolding(st, realPath(abs)) !== undefined;
}

/** The real root (the workspace, else an added working directory) that holds real path `real`. */
function rootHolding(st: State, real: string): string | undefined {
  return st.realRoots.find((root) => isWithin(real, root));
}

function insideWorkspace(st: State, arg: Arg): boolean {
  return resolveArg(st, arg).every((abs) => abs !== undefined && insideRealRoot(st, abs));
}

function inTmp(abs: string): boolean {
  const real = realPath(abs);
  return ['/tmp', '/var/tmp', tmpdir()].some(
    (t) => isWithin(real, realOrSelf(t)) && real !== realOrSelf(t),
  );
}

/** True when `path` is `dir` or inside it. */
function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** The real path of the deepest existing ancestor, with the rest appended (symlinks resolved). */
function realPath(abs: string): string {
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync.native(head), ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return abs;
      tail.push(basename(head));
      head = parent;
    }
  }
}

function show(arg: Arg): string {
  return arg.text.replaceAll(DYNAMIC, '…');
}
