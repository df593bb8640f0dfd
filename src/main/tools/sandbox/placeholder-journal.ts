/**
 * Bubblewrap needs a mount point for each missing protected path, so it leaves an empty file in the
 * workspace (`.claude`, `.workbench`…) that the command's cleanup removes. A workbench killed with
 * SIGKILL never cleans up, and an empty `.workbench` file then breaks every later write under it.
 * So each sandboxed command first notes its placeholders in `$WORKBENCH_HOME/placeholders/`, and the
 * next command sweeps what a dead process left (docs/security.md#the-sandbox). The links on the way
 * to protected paths (`.claude -> config`), which no mount can pin, are noted with them: a link the
 * command replaced is put back, by the cleanup or by the sweep.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { namesIfAny } from '../../fs/list-if-any.ts';
import type { PinnedLink } from './policy.ts';

interface JournalEntry {
  pid: number;
  paths: string[];
  links?: PinnedLink[];
}

const dirOf = (workbenchHome: string) => path.join(workbenchHome, 'placeholders');

/** Removes `p` if it is still the empty file bubblewrap created as a mount point. */
export async function removePlaceholder(p: string): Promise<void> {
  const st = await fs.lstat(p).catch(() => undefined);
  if (st?.isFile() && st.size === 0) await fs.unlink(p).catch(() => undefined);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Puts `link` back if something replaced it; says what happened, or undefined when it was intact.
 * What stood in its place is kept beside it, renamed.
 */
export async function restoreLink(
  link: PinnedLink,
  workspace?: string,
): Promise<string | undefined> {
  const shown = workspace ? path.relative(workspace, link.path) : link.path;
  const st = await fs.lstat(link.path).catch(() => undefined);
  if (st?.isSymbolicLink() && (await fs.readlink(link.path).catch(() => '')) === link.target)
    return undefined;
  const moved = `${link.path}.replaced-${Date.now()}`;
  try {
    if (st) await fs.rename(link.path, moved);
    await fs.symlink(link.target, link.path);
  } catch (err) {
    return `the command replaced ${shown}, a link to ${link.target} the sandbox keeps, and it could not be put back: ${(err as Error).message}`;
  }
  const left = st ? ` (what the command left there is now ${path.basename(moved)})` : '';
  return `the command replaced ${shown}, a link to ${link.target} the sandbox keeps; it was put back${left}`;
}

/**
 * Notes `paths` as this process's placeholders and `links` as the links it keeps; the returned
 * function removes the placeholders, puts back a replaced link (saying so) and removes the note.
 * Contract: never rejects; without a writable home the cleanup still happens in `done`.
 */
export async function notePlaceholders(
  workbenchHome: string,
  paths: string[],
  links: PinnedLink[] = [],
  workspace?: string,
): Promise<() => Promise<string[]>> {
  const remove = async () => {
    for (const p of paths) await removePlaceholder(p);
    const notes: string[] = [];
    for (const l of links) {
      const note = await restoreLink(l, workspace);
      if (note) notes.push(note);
    }
    return notes;
  };
  if (paths.length === 0 && links.length === 0) return remove;
  const file = path.join(
    dirOf(workbenchHome),
    `${process.pid}-${randomBytes(6).toString('hex')}.json`,
  );
  const entry: JournalEntry = { pid: process.pid, paths, ...(links.length ? { links } : {}) };
  const noted = await fs
    .mkdir(dirOf(workbenchHome), { recursive: true, mode: 0o700 })
    .then(() => fs.writeFile(file, JSON.stringify(entry), { mode: 0o600 }))
    .then(
      () => true,
      () => false,
    );
  return async () => {
    const notes = await remove();
    if (noted) await fs.unlink(file).catch(() => undefined);
    return notes;
  };
}

/**
 * Removes the placeholders noted by processes that are gone, then their notes.
 * Contract: never rejects; a live process's placeholders are left alone.
 */
export async function sweepPlaceholders(workbenchHome: string): Promise<void> {
  const dir = dirOf(workbenchHome);
  // Listed in place: every run's start sweeps, the folder is nearly always empty or absent, and a
  // trip through the thread pool cost that start ~0.7 ms (docs/performance.md).
  for (const name of namesIfAny(dir).filter((n) => n.endsWith('.json'))) {
    const file = path.join(dir, name);
    let entry: JournalEntry;
    try {
      entry = JSON.parse(await fs.readFile(file, 'utf8')) as JournalEntry;
    } catch {
      continue;
    }
    if (!Array.isArray(entry.paths) || typeof entry.pid !== 'number' || alive(entry.pid)) continue;
    for (const p of entry.paths) if (typeof p === 'string') await removePlaceholder(p);
    for (const l of Array.isArray(entry.links) ? entry.links : [])
      if (typeof l?.path === 'string' && typeof l.target === 'string') await restoreLink(l);
    await fs.unlink(file).catch(() => undefined);
  }
}
