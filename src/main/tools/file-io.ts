/** Small file helpers shared by the fs tools: size limits, binary sniffing, fs errors in words. */
import { promises as fs, readSync } from 'node:fs';
import { errorMessage } from '../errors.ts';
import { READ_NONBLOCKING } from '../fs/read-text-if-file.ts';

/** Bytes looked at to decide whether a file is binary (the same rule as git and ripgrep: a NUL byte). */
export const BINARY_SNIFF_BYTES = 8192;
/** Largest file read whole, written or edited. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** True when the buffer (first 8 KB of a file) contains a NUL byte. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads up to the first 8 KB of the file at `file`. */
export async function readHead(file: string): Promise<Buffer> {
  const fh = await fs.open(file, READ_NONBLOCKING);
  try {
    return readHeadOf(fh.fd);
  } finally {
    await fh.close();
  }
}

/** Reads up to the first 8 KB of an open regular file (a local read of microseconds), leaving it open. */
export function readHeadOf(fd: number): Buffer {
  const buf = Buffer.alloc(BINARY_SNIFF_BYTES);
  return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
}

/** Message of a Node fs error in words the model can act on. */
export function describeFsError(err: unknown, display: string): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `no such file or directory: ${display}`;
  if (code === 'EISDIR') return `is a directory: ${display}`;
  if (code === 'ENOTDIR') return `not a directory: ${display}`;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied: ${display}`;
  return errorMessage(err);
}
