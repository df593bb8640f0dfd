/**
 * Workspace trust, kept in `$WORKBENCH_HOME/trust.json` keyed by the workspace's real path. Nothing
 * inside a workspace can grant trust: the file lives in the user's home and only `trust()` writes it.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.ts';

export interface TrustedWorkspace {
  path: string;
  trusted_at: number;
}

export interface TrustStore {
  /** Whether `dir` (resolved to its real path) is trusted. Contract: a missing or corrupt file means "nothing trusted". */
  isTrusted(dir: string): boolean;
  /** Trusts `dir` (its real path); written atomically. */
  trust(dir: string): Promise<string>;
  /** Revokes trust; resolves false when it was not trusted. */
  untrust(dir: string): Promise<boolean>;
  list(): TrustedWorkspace[];
}

interface TrustFile {
  version: 1;
  workspaces: Record<string, { trusted_at: number }>;
}

/** The real path of `dir`, or its absolute path when it does not exist (yet). */
export function realPathOf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/** Creates the trust store of `home`. */
export function createTrustStore(home: string): TrustStore {
  const file = join(home, 'trust.json');
  const read = (): TrustFile => {
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<TrustFile>;
      if (data && typeof data.workspaces === 'object' && data.workspaces) return { version: 1, workspaces: data.workspaces };
    } catch {
      /* missing or corrupt: nothing trusted */
    }
    return { version: 1, workspaces: {} };
  };
  const write = (data: TrustFile) => writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
  return {
    isTrusted: (dir) => Object.hasOwn(read().workspaces, realPathOf(dir)),
    async trust(dir) {
      const real = realPathOf(dir);
      const data = read();
      data.workspaces[real] = { trusted_at: Date.now() };
      await write(data);
      return real;
    },
    async untrust(dir) {
      const real = realPathOf(dir);
      const data = read();
      if (!Object.hasOwn(data.workspaces, real)) return false;
      delete data.workspaces[real];
      await write(data);
      return true;
    },
    list: () => Object.entries(read().workspaces).map(([path, v]) => ({ path, trusted_at: v.trusted_at })),
  };
}
