/** What a `workbench <command>` module is given and returns. */
import { WorkbenchError } from '../errors.ts';

/** The terminal and process state a command runs with (injectable for tests). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Parses its own arguments and returns the exit code: 0 ok, 1 runtime error, 2 bad usage, 3 blocked by a hook. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;

/** Bad command-line usage: like every WorkbenchError, main() prints it and exits 2. */
export class UsageError extends WorkbenchError {
  constructor(message: string) {
    super('invalid_args', message);
    this.name = 'UsageError';
  }
}
