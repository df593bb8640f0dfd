/**
 * Listings of optional folders, usually missing, made in place: one system call, no thread-pool
 * round trip. A folder that is absent, not a folder or unreadable lists as empty.
 */
import { readdirSync, type Dirent } from 'node:fs';

/** The names in `dir`; none when it cannot be read. */
export function namesIfAny(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The entries of `dir` with their types; none when it cannot be read. */
export function entriesIfAny(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
