/**
 * `workbench <command>`: dispatches to command modules, imported lazily so `workbench run` loads
 * only what a run needs. Exit codes: 0 ok, 1 runtime error, 2 bad usage, 3 blocked by a hook.
 */
import { errorMessage, WorkbenchError } from '../errors.ts';
import { receiveHandover } from './handover.ts';
import type { CliCommand, CliIo } from './types.ts';
import { processTurnOutput, type TurnOutput } from './turn-output.ts';

const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  run: async () => (await import('./commands/run.ts')).runCommand,
  threads: async () => (await import('./commands/threads.ts')).threadsCommand,
  trace: async () => (await import('./commands/trace.ts')).traceCommand,
  hooks: async () => (await import('./commands/hooks.ts')).hooksCommand,
  trust: async () => (await import('./commands/trust.ts')).trustCommand,
  skills: async () => (await import('./commands/skills.ts')).skillsCommand,
  agents: async () => (await import('./commands/agents.ts')).agentsCommand,
  compact: async () => (await import('./commands/compact.ts')).compactCommand,
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  events: async () => (await import('./commands/events.ts')).eventsCommand,
};

export const USAGE = `usage: workbench <command> [options]

commands:
  run [--workspace DIR] [--model NAME] [--base-url URL] [--thread ID] [--agent NAME] [--auto]
      [--no-hooks] [--trust] [--max-iterations N] [--json] [--meta K=V]... [--add-dir DIR]...
      PROMPT                                             run the agent once
  run --recipe NAME [ARGS]                               run a recipe (docs/recipes.md)
  run --resume THREAD                                    continue an interrupted run
  threads list [--all] [--json] [--meta K=V]...          list threads (--all: with subagent threads)
  threads show ID [--json]                               print a thread (JSON: state, agent, children)
  threads resume ID                                      continue an interrupted run
  threads meta ID [--meta K=V]... [--remove K]...        set or remove thread metadata
  threads delete ID                                      delete a thread and all stored for it
  events [--follow] [--json] [--thread ID] [--since SEQ] print (and follow) the event feed
  threads changes ID [--json]                            list the files the agent changed
  threads revert ID --call C|--file P|--run R [--force]  revert agent writes (conflicts stop it)
  compact THREAD_ID                                      compact a thread's context now
  trace export THREAD_ID --format otlp|chrome [--out F] [--content]
                                                         export a thread's trace
  trace import FILE [--thread ID]                        import an OTLP JSON trace
  trace show THREAD_ID [--json]                          print a thread's span tree
  hooks list|runs|test|replay ...                        inspect and try user hooks
  trust DIR                                              trust a workspace's hooks
  skills list [--workspace DIR] [--json]                 list skills and their problems
  agents list [--workspace DIR] [--json]                 list agent profiles and their problems
  serve [--host H] [--port N] [--workspace DIR]          serve the app to a browser

environment: OPENAI_API_KEY, OPENAI_BASE_URL, WORKBENCH_MODEL, WORKBENCH_HOME (default ~/.workbench)`;

let output: TurnOutput | undefined;
const processIo = (env: NodeJS.ProcessEnv = process.env): CliIo => {
  output ??= processTurnOutput();
  return { stdout: output.stdout, stderr: output.stderr, env, cwd: process.cwd() };
};

/**
 * The CLI as this process (bin/workbench.mjs): the environment plus what the launcher handed over
 * out of band (handover.ts), kept in `io.env` only, never in process.env.
 */
export async function runAsProcess(argv: string[]): Promise<number> {
  // Set by bin/workbench for this process's start only; never passed on to commands and hooks.
  if (process.env.WORKBENCH_UNSET_GLIBC_TUNABLES === '1') {
    delete process.env.GLIBC_TUNABLES;
    delete process.env.WORKBENCH_UNSET_GLIBC_TUNABLES;
  }
  const handed = await receiveHandover(process.env);
  return main(argv, processIo({ ...process.env, ...handed }));
}

/**
 * Loads what `workbench run` needs and runs nothing: the CLI's startup snapshot
 * (scripts/cli-snapshot.mjs) keeps these modules evaluated, so a run starts without loading them.
 */
export async function loadForSnapshot(): Promise<void> {
  await Promise.all([COMMANDS.run!(), import('../api/workbench.ts')]);
  const tools = await import('../tools/index.ts');
  const { toolJsonSchema } = await import('../tools/registry.ts');
  for (const tool of [...tools.createFilesystemTools(), tools.createWriteTodosTool(() => {})])
    toolJsonSchema(tool.parameters);
}

/** Runs the CLI and returns the exit code. Contract: never throws. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr(`workbench: unknown command "${name}"\n${USAGE}\n`);
    return 2;
  }
  try {
    return await (
      await load()
    )(rest, io);
  } catch (err) {
    // Expected failures (bad usage, unknown thread, not a folder…) exit 2; anything else is a runtime error.
    io.stderr(`workbench ${name}: ${errorMessage(err)}\n`);
    return err instanceof WorkbenchError ? 2 : 1;
  }
}
