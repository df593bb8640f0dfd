/**
 * Bubblewrap needs a mount point for each missing protected path, so it leaves an empty file in the
 * workspace (`.claude`, `.workbench`…) that the command's cleanup removes. A workbench killed with
 * SIGKILL never cleans up, and an empty `.workbench` file then breaks every later write under it.
 * So each sandboxed command first notes its placeholders in `$WORKBENCH_HOME/placeholders/`, and the
 * next command sweeps what a dead process left (docs/security.md#the-sandbox).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

interface JournalEntry {
  pid: number;
  paths: string[];
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
 * Notes `paths` as this process's placeholders; the returned function removes them and the note.
 * Contract: never rejects; without a writable home the placeholders are still removed by `done`.
 */
export async function notePlaceholders(
  workbenchHome: string,
  paths: string[],
): Promise<() => Promise<void>> {
  const remove = async () => {
    for (const p of paths) await removePlaceholder(p);
  };
  if (paths.length === 0) return remove;
  const file = path.join(
    dirOf(workbenchHome),
    `${process.pid}-${randomBytes(6).toString('hex')}.json`,
  );
  const entry: JournalEntry = { pid: process.pid, paths };
  const noted = await fs
    .mkdir(dirOf(workbenchHome), { recursive: true, mode: 0o700 })
    .then(() => fs.writeFile(file, JSON.stringify(entry), { mode: 0o600 }))
    .then(
      () => true,
      () => false,
    );
  return async () => {
    await remove();
    if (noted) await fs.unlink(file).catch(() => undefined);
  };
}

/**
 * Removes the placeholders noted by processes that are gone, then their notes.
 * Contract: never rejects; a live process's placeholders are left alone.
 */
export async function sweepPlaceholders(workbenchHome: string): Promise<void> {
  const dir = dirOf(workbenchHome);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = path.join(dir, name);
    let entry: JournalEntry;
    try {
      entry = JSON.parse(await fs.readFile(file, 'utf8')) as JournalEntry;
    } catch {
      continue;
    }
    if (!Array.isArray(entry.paths) || typeof entry.pid !== 'number' || alive(entry.pid)) continue;
    for (const p of entry.paths) if (typeof p === 'string') await removePlaceholder(p);
    await fs.unlink(file).catch(() => undefined);
  }
}
