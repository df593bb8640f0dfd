/** Tells the Changes view that a revert happened elsewhere (a chat card, the trace), so it re-reads. */
const listeners = new Set<() => void>();

/** Subscribes; returns the unsubscribe function. */
export function onCheckpointsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Announces a revert. */
export function checkpointsChanged(): void {
  listeners.forEach((l) => l());
}
