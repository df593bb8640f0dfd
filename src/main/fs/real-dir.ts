/** Resolving a folder the user named (workspace, trust prompt) to its real path. */
import { realpath, stat } from 'node:fs/promises';
import { WorkbenchError } from '../errors.ts';

/**
 * The real path of `dir`.
 * Contract: rejects with WorkbenchError invalid_args "workspace is not a folder: …" when `dir` is
 * missing or not a folder.
 */
export async function realDir(dir: string): Promise<string> {
  const real = await realpath(dir).catch(() => undefined);
  if (real && (await stat(real)).isDirectory()) return real;
  throw new WorkbenchError('invalid_args', `workspace is not a folder: ${dir}`);
}
