/**
 * The receiving end of the launchers' key handover: a launcher starts the CLI with every
 * secret-looking variable (the API key) removed from its environment and writes them as one JSON line
 * to an inherited pipe, so `/proc/<cli pid>/environ` — readable by every command the agent runs —
 * never holds the key. bin/workbench.mjs starts the CLI as its child and keeps the pipe open while it
 * lives: its end means the launcher is gone, and the CLI then stops as if its terminal had closed
 * (SIGHUP). bin/workbench replaces itself with the CLI and says so (HANDOVER_ONCE_VARIABLE): the
 * pipe ends after the line, and that means nothing.
 */
import { Socket } from 'node:net';

/** Names the fd of the handover pipe; set by the launcher only. */
export const HANDOVER_FD_VARIABLE = 'WORKBENCH_HANDOVER_FD';
/** Set (to 1) when no launcher stays behind the pipe: its end is not a signal to stop. */
export const HANDOVER_ONCE_VARIABLE = 'WORKBENCH_HANDOVER_ONCE';

/**
 * Reads the variables the launcher handed over (none when not started by the launcher).
 * Contract: removes HANDOVER_FD_VARIABLE and HANDOVER_ONCE_VARIABLE from `env`; resolves `{}` on a
 * missing or broken pipe; never keeps the process alive; raises SIGHUP on this process when the end
 * of a launcher that stays behind the pipe closes.
 */
export function receiveHandover(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  const fd = Number(env[HANDOVER_FD_VARIABLE]);
  const launcherStays = env[HANDOVER_ONCE_VARIABLE] !== '1';
  delete env[HANDOVER_FD_VARIABLE];
  delete env[HANDOVER_ONCE_VARIABLE];
  if (!Number.isInteger(fd) || fd < 3) return Promise.resolve({});
  return new Promise((resolve) => {
    let socket: Socket;
    try {
      socket = new Socket({ fd, readable: true, writable: false });
    } catch {
      resolve({});
      return;
    }
    let text = '';
    let received = false;
    const finish = (vars: Record<string, string>) => {
      if (received) return;
      received = true;
      socket.unref();
      resolve(vars);
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (received) return;
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) finish(parseVariables(text.slice(0, end)));
    });
    socket.on('error', () => finish({}));
    socket.on('close', () => {
      if (received && launcherStays) process.kill(process.pid, 'SIGHUP');
      finish({});
    });
  });
}

function parseVariables(line: string): Record<string, string> {
  try {
    const parsed = JSON.parse(line) as unknown;
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}
