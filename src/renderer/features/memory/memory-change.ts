/**
 * Whether an agent write (`file_changed`) touched a memory file the panel shows: the files open in
 * the editors and the sources of the effective context. Pure, so the watch's decision is testable.
 */
import type { EffectiveContext } from '../../../shared/ipc/contract.ts';
import type { FileChange } from '../../../shared/types/index.ts';
import type { MemoryEditor } from './memory-model.ts';

const slashes = (p: string): string => p.replace(/\\/g, '/');
const isAbsolute = (p: string): boolean => p.startsWith('/') || /^[A-Za-z]:\//.test(p);

/** The absolute paths of the memory files the panel shows. */
export function shownMemoryPaths(
  editors: Readonly<Partial<Record<string, MemoryEditor>>>,
  effective: EffectiveContext | null,
): string[] {
  const paths = Object.values(editors).flatMap((e) => (e ? [e.doc.path] : []));
  for (const source of effective?.memory.sources ?? []) paths.push(source.path);
  return paths;
}

/**
 * Contract: true when `change.path` (workspace-relative when inside the workspace, else absolute)
 * names one of `shown` (absolute paths).
 */
export function touchesShownMemory(
  change: FileChange,
  shown: readonly string[],
  workspaceRoot: string,
): boolean {
  const changed = slashes(change.path);
  const absolute = isAbsolute(changed)
    ? changed
    : `${slashes(workspaceRoot).replace(/\/$/, '')}/${changed}`;
  return shown.some((p) => slashes(p) === absolute);
}
