/**
 * Claude Code's agent memory (an agent's `memory: user | project | local`, docs/agents.md): a folder
 * of notes the agent keeps between its runs. The first 200 lines of its MEMORY.md join the agent's
 * system prompt when a run starts, with what the folder is for; the agent writes there with its
 * file tools.
 */
import { constants, mkdirSync, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeConfigDir } from '../env/claude-config-dir.ts';
import { isInside } from '../tools/path-guard.ts';

export type AgentMemoryScope = 'user' | 'project' | 'local';

export const AGENT_MEMORY_SCOPES: ReadonlySet<string> = new Set(['user', 'project', 'local']);

/** Lines of MEMORY.md an agent is shown, and the most of it read (as Claude Code shows it). */
const SHOWN_LINES = 200;
const SHOWN_BYTES = 25 * 1024;

/** Where `agent`'s memory of `scope` lives: yours, the project's, or the project's kept out of git. */
export function agentMemoryDir(scope: AgentMemoryScope, agent: string, workspace: string): string {
  if (scope === 'user') return join(claudeConfigDir(), 'agent-memory', agent);
  return join(
    workspace,
    '.claude',
    scope === 'project' ? 'agent-memory' : 'agent-memory-local',
    agent,
  );
}

/** An agent's memory for a run: its folder and the system block, or why there is none. */
export type AgentMemory = { dir: string; block: string } | { problem: string };

/**
 * The memory of `agent` for a run in `workspace`. Your own folder is made when missing (a
 * project's is made by the first write); a project's must stay in the workspace and its MEMORY.md
 * is read without following a link; none is read blocking on a FIFO.
 * Contract: never rejects; a problem names the agent and the folder.
 */
export async function openAgentMemory(
  scope: AgentMemoryScope,
  agent: string,
  workspace: string,
): Promise<AgentMemory> {
  const dir = agentMemoryDir(scope, agent, workspace);
  const problem = (why: string) => ({
    problem: `agent ${agent}: its memory (${scope}) at ${dir} ${why}`,
  });
  let real = dir;
  try {
    if (scope === 'user') mkdirSync(dir, { recursive: true, mode: 0o700 });
    real = realpathSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (scope === 'user' || code !== 'ENOENT') return problem(`cannot be used (${code ?? err})`);
  }
  if (scope !== 'user' && !isInside(real, realpathSync(workspace)))
    return problem('leads out of the workspace; not read');
  // Your own folder may link anywhere, as your skills may; a project's MEMORY.md must be a file there.
  const notes = await readShown(join(real, 'MEMORY.md'), scope !== 'user');
  if (typeof notes === 'object') return problem(`has a MEMORY.md that ${notes.refused}; not read`);
  return { dir: real, block: memoryBlock(agent, scope, real, notes) };
}

/** The start of a MEMORY.md as the agent is shown it; '' when there is none. */
async function readShown(file: string, noLinks: boolean): Promise<string | { refused: string }> {
  let handle;
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (noLinks ? constants.O_NOFOLLOW : 0);
  try {
    handle = await open(file, flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? '' : { refused: `cannot be read (${code})` };
  }
  try {
    if (!(await handle.stat()).isFile()) return { refused: 'is not a regular file' };
    const buf = Buffer.alloc(SHOWN_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SHOWN_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function memoryBlock(agent: string, scope: AgentMemoryScope, dir: string, text: string): string {
  const lines = text.split('\n');
  const shown = lines.slice(0, SHOWN_LINES).join('\n').trimEnd();
  const more = lines.length > SHOWN_LINES || Buffer.byteLength(text) >= SHOWN_BYTES;
  return [
    `## Your memory (agent ${agent}, ${scope})`,
    `You keep notes between your runs in ${dir}. When you learn something that will help you next time — a convention, a decision, a recurring problem and its fix — record it there with write_file or edit_file. Keep MEMORY.md short: its first ${SHOWN_LINES} lines are shown to you at the start of each run; put details in other files of that folder and point to them from MEMORY.md.`,
    shown
      ? `<memory file="${join(dir, 'MEMORY.md')}">\n${shown}\n</memory>${more ? `\n(MEMORY.md goes on: read the rest with read_file.)` : ''}`
      : 'MEMORY.md does not exist yet: nothing is recorded.',
  ].join('\n');
}
