/**
 * `workbench run PROMPT`: one agent run from the terminal. The answer streams to stdout and tool
 * activity, with commands' live output, to stderr; with `--json`, one StreamEvent per line on stdout.
 */
import { constants } from 'node:os';
import { resolve } from 'node:path';
import type { StreamEvent } from '../../../shared/types/index.ts';
import { WorkbenchError } from '../../errors.ts';
import { homePaths, resolveHome } from '../../store/paths.ts';
import { metaPairs, parse, positiveInt } from '../args.ts';
import { describeRunSandbox, detectSandbox } from '../../tools/sandbox/index.ts';
import { UsageError, type CliCommand, type CliIo } from '../types.ts';
import { runSandboxSettings } from '../../middleware/claude-sandbox-settings.ts';

/**
 * From here on V8 gives each function its feedback vector (inline caches) on its first call, not its
 * eighth. A run's rounds call most of their code once a round, so by default the first eight rounds
 * ran it uncached in the interpreter: ~0.4 ms less of every round's client gap over 20 rounds, start
 * and memory as they were (docs/performance.md). Set once the workbench is open, so its loading is not
 * affected.
 */
function feedbackFromFirstCall(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--no-lazy-feedback-allocation');
}

/** Signals that cancel a run; the exit code is 128 + the first one's number (130, 143, 129). */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export const runCommand: CliCommand = async (argv, io) => {
  const { values, positionals } = parse(argv, {
    workspace: { type: 'string' },
    model: { type: 'string' },
    'base-url': { type: 'string' },
    thread: { type: 'string' },
    agent: { type: 'string' },
    auto: { type: 'boolean' },
    'no-hooks': { type: 'boolean' },
    trust: { type: 'boolean' },
    'max-iterations': { type: 'string' },
    json: { type: 'boolean' },
    meta: { type: 'string', multiple: true },
    recipe: { type: 'string' },
    resume: { type: 'string' },
    'add-dir': { type: 'string', multiple: true },
  });
  const prompt = positionals.join(' ').trim();
  const resume = values.resume;
  if (resume && (prompt || values.recipe || values.thread))
    throw new UsageError('--resume THREAD takes no PROMPT, --recipe or --thread');
  if (!prompt && !values.recipe && !resume)
    throw new UsageError('a PROMPT is required, e.g. workbench run "list the files"');
  const metadata = metaPairs(values.meta);
  const maxIterations = positiveInt(values['max-iterations'], '--max-iterations');

  const home = resolveHome(io.env);
  const workspaceRoot = resolve(io.cwd, values.workspace ?? '.');
  // bubblewrap's probe (a process of its own, unless the home remembers one that succeeded under the
  // same conditions) runs while the workbench loads and opens.
  const sandboxProbe = detectSandbox({ memoFile: homePaths(home).sandboxProbe });
  const { createWorkbench } = await import('../../api/workbench.ts');
  let workbench;
  try {
    workbench = await createWorkbench({
      home,
      workspace: workspaceRoot,
      apiKey: io.env.OPENAI_API_KEY,
      baseURL: values['base-url'] ?? (io.env.OPENAI_BASE_URL || undefined),
      model: values.model ?? (io.env.WORKBENCH_MODEL || undefined),
      interactive: false,
      env: io.env,
    });
  } catch (err) {
    if (err instanceof WorkbenchError) throw new UsageError(err.message);
    throw err;
  }
  feedbackFromFirstCall();
  // As the run will go by it: Claude Code's `sandbox` block may require the sandbox or allow domains.
  const trusted = Boolean(values.trust) || workbench.trust.isTrusted(workspaceRoot);
  const settings = await runSandboxSettings(workbench.settings.get(), { workspace: workspaceRoot, home, trusted });
  io.stderr(`commands: ${describeRunSandbox(settings, await sandboxProbe)}\n`);
  const print = values.json ? jsonPrinter(io) : textPrinter(io);
  const unsubscribe = workbench.subscribe(print);
  // Ctrl+C, `kill` and a closing terminal all cancel the run (commands end, open calls are answered).
  // Every delivery cancels again (a no-op): a signal can arrive twice, from the terminal and the launcher.
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    stoppedBy ??= sig;
    workbench.chat.running().forEach((threadId) => workbench.chat.cancel({ threadId }));
  };
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  try {
    const common = {
      approvalMode: values.auto ? ('auto' as const) : ('ask' as const),
      maxIterations,
      trust: values.trust,
      noHooks: values['no-hooks'],
      agent: values.agent,
      metadata,
      addDirs: values['add-dir']?.map((dir) => resolve(io.cwd, dir)),
    };
    const handle = resume
      ? await workbench.chat.resume({ threadId: resume, ...common })
      : await workbench.chat.send({ threadId: values.thread, text: prompt, recipe: values.recipe, ...common });
    if (stoppedBy) workbench.chat.cancel({ threadId: handle.threadId });
    const result = await handle.finished;
    if (!values.json) io.stdout('\n');
    if (result.blocked) {
      io.stderr(`blocked by hook ${result.blocked.by}: ${result.blocked.reason}\n`);
      return 3;
    }
    if (result.stop_reason === 'cancelled') {
      io.stderr('cancelled\n');
      return 128 + (constants.signals[stoppedBy ?? 'SIGINT'] ?? 2);
    }
    if (result.error) {
      io.stderr(`error: ${result.error}\n`);
      return 1;
    }
    if (result.stop_reason === 'max_iterations') {
      io.stderr(
        `stopped: the agent used all its iterations (thread ${handle.threadId}; continue with --thread)\n`,
      );
      return 1;
    }
    if (!values.json) io.stderr(`thread ${handle.threadId}\n`);
    return 0;
  } catch (err) {
    if (err instanceof WorkbenchError) {
      if (err.code === 'not_found' || err.code === 'invalid_args') throw new UsageError(err.message);
    }
    throw err;
  } finally {
    for (const sig of STOP_SIGNALS) process.removeListener(sig, onSignal);
    unsubscribe();
    await workbench.close();
  }
};

function jsonPrinter(io: CliIo) {
  return (event: StreamEvent) => io.stdout(`${JSON.stringify(event)}\n`);
}

const oneLine = (text: string, max = 120) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** A subagent's activity is prefixed with its name (`[researcher] `). */
const who = (event: StreamEvent) => (event.agent ? `[${event.agent}] ` : '');

function textPrinter(io: CliIo) {
  return (event: StreamEvent) => {
    switch (event.event) {
      case 'on_chat_model_stream':
        // A subagent's answer reaches the user through the parent's: only the main run streams.
        if (!event.depth) io.stdout(event.data.delta);
        break;
      case 'on_run_start':
        if (!event.depth && event.data.working_dirs)
          io.stderr(`working directories: ${event.data.working_dirs.join(', ')}\n`);
        break;
      case 'on_tool_start':
        io.stderr(`\n${who(event)}→ ${event.name} ${oneLine(JSON.stringify(event.data.args))}\n`);
        break;
      case 'on_tool_output':
        // Command output goes with the tool activity on stderr; stdout stays the answer.
        io.stderr(event.data.chunk);
        break;
      case 'on_tool_end': {
        const d = event.data;
        io.stderr(
          d.error
            ? `${who(event)}✗ ${event.name}: ${oneLine(d.error)}\n`
            : d.status === 'ok'
              ? `${who(event)}✓ ${event.name} (${d.duration_ms} ms)\n`
              : `${who(event)}■ ${event.name} ${d.status === 'timeout' ? 'timed out' : d.status} (${d.duration_ms} ms)\n`,
        );
        if (d.rewritten_by) io.stderr(`  (input changed by hook ${d.rewritten_by}: ${oneLine(JSON.stringify(d.args))})\n`);
        break;
      }
      case 'on_todos': {
        const todos = event.data.todos;
        const mark = { done: '[x]', in_progress: '[~]', pending: '[ ]' } as const;
        io.stderr(`todos:\n${todos.map((t) => `  ${mark[t.status]} ${t.title}`).join('\n')}\n`);
        break;
      }
      case 'on_hook_start': {
        const d = event.data;
        io.stderr(`${who(event)}… hook ${d.hook} (${d.event})${d.message ? `: ${oneLine(d.message)}` : ' is running'}\n`);
        break;
      }
      case 'on_hook_message':
        io.stderr(`${event.data.kind === 'stop' ? '■ run stopped by hook' : '! hook'} ${event.data.hook}: ${oneLine(event.data.message)}\n`);
        break;
      case 'on_elicitation_resolved': {
        // Nobody can fill a form here: the user sees what was asked and how it was answered.
        const d = event.data;
        const how = d.answered_by === 'hook' ? `answered by hook ${d.hook}: ${d.action}` : d.answered_by === 'nobody' ? `declined: ${d.reason}` : d.action;
        io.stderr(`${who(event)}? MCP server ${d.server} asked: ${oneLine(d.message)} — ${how}\n`);
        break;
      }
      case 'on_script_data':
        io.stderr(`◆ ${event.data.hook}: ${oneLine(JSON.stringify(event.data.data))}\n`);
        break;
      case 'on_blocked': {
        const d = event.data;
        if (d.target === 'tool_call') io.stderr(`⊘ blocked by ${d.by}: ${oneLine(d.reason)}\n`);
        break;
      }
      case 'error': {
        const d = event.data;
        if (d.code === 'diagnostic') io.stderr(`warning: ${d.message}\n`);
        break;
      }
      default:
        break;
    }
  };
}
