/** A `workbench <command>` module: parses its own arguments and returns the exit code. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Exit codes: 0 ok, 1 runtime error, 2 bad usage, 3 blocked by a hook. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
