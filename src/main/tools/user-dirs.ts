/**
 * The folders that hold people's files, as Claude Code's `blockReadsOutsideWorkingDirectories`
 * names them: what it keeps commands from reading outside the working directories. The system's
 * own folders (`/usr`, `/etc`, `/opt`) stay readable, so commands still find their programs.
 */
import { isInside } from './path-guard.ts';

const USER_FOLDERS = ['/home', '/root', '/mnt', '/media', '/run/media', '/Users', '/Volumes'];

/** The user folders of this machine's layout, with `home` wherever it lies. */
export function userDirs(home: string): string[] {
  return USER_FOLDERS.some((d) => isInside(home, d)) ? USER_FOLDERS : [...USER_FOLDERS, home];
}
