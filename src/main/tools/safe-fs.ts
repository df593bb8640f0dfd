/**
 * Opening and writing files so that what the path guard checked is what the OS touches, even when
 * another process swaps a folder for a symlink mid-call. Reads open the final component without
 * following links (O_NOFOLLOW) and non-blocking (a FIFO never hangs), then check the opened
 * descriptor: a regular file, the inode that was looked at, its real path allowed. Writes open the
 * parent folder, check that descriptor's real path, and create, fill and rename the temp file through
 * it (`/proc/self/fd/N/name` on Linux resolves inside that very folder, like openat). Without
 * /proc the same checks run on paths before and after the open: narrower, not airtight.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  promises as fs,
  readlinkSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ToolError } from './types.ts';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const PROC_FD =
  process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : undefined;

/** Where the real path of an opened file may lie, and whether extra hard links are tolerated. */
export interface OpenPolicy {
  allowed(real: string): boolean;
  allowHardLinks: boolean;
}

/** A file opened for reading after every check passed. */
export interface OpenedFile {
  /** The checked descriptor, positioned at the start; the caller closes it with `close`. */
  fd: number;
  stat: Stats;
  close(): void;
}

/** Thrown when the file changed under the call (a swap) or is not one the tools may open. */
function refuse(message: string): ToolError {
  return new ToolError(message);
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSymbolicLink()) return 'a symlink';
  return 'not a regular file';
}

/** Refuses anything but a regular file with a single link (unless allowed). */
function checkRegular(st: Stats, shown: string, policy: OpenPolicy): void {
  if (st.isDirectory()) throw refuse(`is a directory: ${shown}`);
  if (!st.isFile())
    throw refuse(`refusing to open ${shown}: it is ${kindOf(st)}, not a regular file`);
  if (st.nlink > 1 && !policy.allowHardLinks) {
    throw refuse(
      `refusing to open ${shown}: it has ${st.nlink} hard links (another name may lie outside the ` +
        'workspace); set allow_hard_links in settings to allow it',
    );
  }
}

const sameInode = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;

/** Real path of an open descriptor, or undefined where the OS does not tell. */
async function descriptorPath(fd: number): Promise<string | undefined> {
  return PROC_FD ? fs.readlink(`${PROC_FD}/${fd}`) : undefined;
}

/**
 * Opens `real` (a path the guard resolved) for reading.
 * Contract: throws a ToolError, before any byte is read, for a directory, FIFO, socket, device, a
 * file with other hard links (unless allowed), or a file that is not where it was checked.
 */
export function openForRead(real: string, shown: string, policy: OpenPolicy): OpenedFile {
  // Synchronous, the open too: each step is a local syscall of a few microseconds, where a trip
  // through the thread pool costs ~0.1 ms (docs/performance.md). O_NONBLOCK: a FIFO swapped in
  // after the lstat opens at once (and is refused), never waits for a writer.
  const before = lstatSync(real);
  checkRegular(before, shown, policy);
  let fd: number;
  try {
    fd = openSync(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      throw refuse(`${shown} changed while it was opened`);
    throw err;
  }
  try {
    const st = fstatSync(fd);
    checkRegular(st, shown, policy);
    const actual = PROC_FD ? readlinkSync(`${PROC_FD}/${fd}`) : realpathSync.native(real);
    if (!sameInode(st, before) || !policy.allowed(actual))
      throw refuse(`${shown} changed while it was opened`);
    if (!PROC_FD && !sameInode(st, statSync(actual)))
      throw refuse(`${shown} changed while it was opened`);
    return { fd, stat: st, close: () => closeSync(fd) };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** A folder opened and checked: `child(name)` names an entry through the opened folder itself. */
interface CheckedDir {
  child(name: string): string;
  close(): Promise<void>;
}

/** Opens folder `dir` (a real path) and checks that the descriptor is that very folder. */
async function openDir(dir: string, shown: string): Promise<CheckedDir> {
  const handle = await fs
    .open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    .catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ELOOP' || err.code === 'ENOTDIR')
        throw refuse(`${shown} changed while it was opened`);
      throw err;
    });
  try {
    const actual = (await descriptorPath(handle.fd)) ?? (await fs.realpath(dir));
    const st = await handle.stat();
    if (actual !== dir || !st.isDirectory() || !sameInode(st, await fs.stat(actual))) {
      throw refuse(`${shown} changed while it was opened`);
    }
  } catch (err) {
    await handle.close();
    throw err;
  }
  const base = PROC_FD ? `${PROC_FD}/${handle.fd}` : dir;
  return { child: (name) => path.join(base, name), close: () => handle.close() };
}

/** Creates the missing folders of `dir` one at a time, each inside the folder checked before it. */
async function ensureDir(dir: string, shown: string): Promise<void> {
  const missing: string[] = [];
  let existing = dir;
  for (;;) {
    const st = await fs.lstat(existing).catch(() => undefined);
    if (st?.isDirectory()) break;
    if (st) throw refuse(`not a directory: ${shown}`);
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  for (const name of missing) {
    const parent = await openDir(existing, shown);
    try {
      await fs.mkdir(parent.child(name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    } finally {
      await parent.close();
    }
    existing = path.join(existing, name);
  }
}

/**
 * Writes `data` to `real` atomically (temp file + rename), every step inside the checked parent
 * folder, keeping an existing file's mode. Contract: resolves whether the file existed; rejects
 * (ToolError) when the target is a directory or not a regular file, or a folder changed mid-call;
 * no temp file is left behind on failure.
 */
export async function writeChecked(
  real: string,
  data: string | Uint8Array,
  shown: string,
): Promise<{ existed: boolean }> {
  const dir = path.dirname(real);
  await ensureDir(dir, shown);
  const parent = await openDir(dir, shown);
  const name = path.basename(real);
  const tmp = parent.child(`.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const st = await fs.lstat(parent.child(name)).catch(() => undefined);
    if (st?.isDirectory()) throw refuse(`is a directory: ${shown}`);
    if (st && !st.isFile())
      throw refuse(`refusing to write ${shown}: it is ${kindOf(st)}, not a regular file`);
    const mode = st ? st.mode & 0o7777 : undefined;
    const fh = await fs.open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o666);
    try {
      await fh.writeFile(data);
      if (mode !== undefined) await fh.chmod(mode); // the umask may have narrowed it
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, parent.child(name));
    return { existed: st !== undefined };
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  } finally {
    await parent.close();
  }
}
