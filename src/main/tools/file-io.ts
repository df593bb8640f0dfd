/** Small file helpers shared by the fs tools: size limits, binary sniffing, fs errors in words. */
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { errorMessage } from '../errors.ts';

/** Bytes looked at to decide whether a file is binary (the same rule as git and ripgrep: a NUL byte). */
export const BINARY_SNIFF_BYTES = 8192;
/** Largest file read whole, written or edited. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** True when the buffer (first 8 KB of a file) contains a NUL byte. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads up to the first 8 KB of a file (a path, or a handle that stays open). */
export async function readHead(file: string | FileHandle): Promise<Buffer> {
  const fh = typeof file === 'string' ? await fs.open(file, 'r') : file;
  try {
    const buf = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    if (typeof file === 'string') await fh.close();
  }
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
