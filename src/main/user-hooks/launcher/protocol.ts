/** The JSON lines between the workbench and its hook launcher (`child.mjs`), one object a line. */

/** Workbench → launcher: start a process, or stop relaying one the workbench is done with. */
export type LauncherRequest =
  | {
      op: 'run';
      id: number;
      command: string;
      args: string[];
      cwd: string;
      env: Record<string, string>;
      /** Written to the process's stdin, which is then closed. */
      stdin: string;
      /** Bytes of stdout and stderr relayed; beyond them only counted. */
      caps: [number, number];
    }
  | { op: 'drop'; id: number };

/** Launcher → workbench: what a started process did, in order. */
export type LauncherReply =
  /** Sent once, when the launcher reads its requests. */
  | { ev: 'ready' }
  | { id: number; ev: 'spawn'; pid: number }
  | { id: number; ev: 'error'; code?: string; message: string }
  /** A chunk of stdout (1) or stderr (2), base64. */
  | { id: number; ev: 'out'; fd: 1 | 2; data: string }
  | { id: number; ev: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  /** Both pipes closed; `dropped` counts the bytes beyond the caps, per stream. */
  | { id: number; ev: 'close'; dropped: [number, number] };
