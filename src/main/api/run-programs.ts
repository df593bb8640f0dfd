/**
 * The files a run's hooks and MCP servers run outside the sandbox, for the workspace guard
 * (`Workspace.programs`): the hooks' worked out on first need (a run that writes nothing never
 * parses their commands), the servers' again whenever the connected ones change.
 */
import type { McpServerSpec } from '../mcp/config.ts';
import {
  outsidePrograms,
  type OutsideProcess,
  type OutsideProgram,
} from '../tools/program-files.ts';

export function runPrograms(o: {
  /** What the run's hooks start (PipelineHooks.processes). */
  processes: readonly OutsideProcess[];
  /** The workspace's servers as connected now. */
  servers: () => readonly McpServerSpec[];
  workspace: string;
  home: string;
}): () => readonly OutsideProgram[] {
  let hooks: readonly OutsideProgram[] | undefined;
  let serversKey = '';
  let servers: readonly OutsideProgram[] = [];
  return () => {
    hooks ??= outsidePrograms(o.processes, o);
    const specs = o.servers();
    const key = specs.map((s) => s.key).join('\0');
    if (key !== serversKey) {
      serversKey = key;
      servers = outsidePrograms(specs.flatMap(serverProcess), o);
    }
    return servers.length ? [...hooks, ...servers] : hooks;
  };
}

function serverProcess(s: McpServerSpec): OutsideProcess[] {
  if (s.transport !== 'stdio') return [];
  return [
    {
      proc: { command: s.command, args: s.args, shell: false, cwd: s.cwd },
      why: `is run outside the sandbox by MCP server "${s.name}" (${s.from})`,
    },
  ];
}
