/** The hot-thread cache: AgentState objects with a last-access time, swept by TTL. */
import type { AgentState } from '../../shared/types/index.ts';

interface Entry {
  state: AgentState;
  lastAccess: number;
}

/**
 * A Map of live AgentState objects. Contract: it only frees memory — SQLite stays the truth.
 * A swept entry is demoted to a WeakRef rather than forgotten: if a caller still holds the state
 * (an agent run waiting an hour on an approval), the next access gets that same object back, so
 * appends keep landing on it; once nobody holds it, GC frees it and the next access reloads.
 */
export class ThreadCache {
  readonly #entries = new Map<string, Entry>();
  readonly #weak = new Map<string, WeakRef<AgentState>>();
  readonly #registry = new FinalizationRegistry<string>((id) => {
    if (this.#weak.get(id)?.deref() === undefined) this.#weak.delete(id);
  });
  readonly #now: () => number;
  readonly #ttlMs: number;

  constructor(now: () => number, ttlMs: number) {
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  /** Returns the cached (or still referenced) state and refreshes its last access. */
  get(id: string): AgentState | undefined {
    const entry = this.#entries.get(id);
    if (entry) {
      entry.lastAccess = this.#now();
      return entry.state;
    }
    const state = this.#weak.get(id)?.deref();
    if (state) this.set(id, state);
    return state;
  }

  set(id: string, state: AgentState): void {
    this.#weak.delete(id);
    this.#entries.set(id, { state, lastAccess: this.#now() });
  }

  delete(id: string): void {
    this.#entries.delete(id);
    this.#weak.delete(id);
  }

  /** Threads held strongly (the ones the TTL governs). */
  get size(): number {
    return this.#entries.size;
  }

  /** Demotes entries idle for more than the TTL to weak references; returns how many. */
  sweep(): number {
    const cutoff = this.#now() - this.#ttlMs;
    let dropped = 0;
    for (const [id, entry] of this.#entries) {
      if (entry.lastAccess < cutoff) {
        this.#entries.delete(id);
        this.#weak.set(id, new WeakRef(entry.state));
        this.#registry.register(entry.state, id);
        dropped++;
      }
    }
    return dropped;
  }

  clear(): void {
    this.#entries.clear();
    this.#weak.clear();
  }
}
