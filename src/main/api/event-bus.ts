/** Fan-out of StreamEvents to every subscriber (UI, socket clients, CLI `--json`). */
import type { StreamEvent } from '../../shared/types/index.ts';

export type EventListener = (event: StreamEvent) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Contract: a throwing listener never breaks the run or the other listeners. */
  emit(event: StreamEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A subscriber's bug (e.g. a closed socket) must not stop the agent.
      }
    }
  }
}
