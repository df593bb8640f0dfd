/** A counter the Agents panel bumps after it changes a profile, so the composer's picker lists it at once. */
import { create } from 'zustand';

/** Contract: `rev` grows by one on every `bump`. */
export const useAgentsRevision = create<{ rev: number; bump(): void }>()((set) => ({
  rev: 0,
  bump: () => set((s) => ({ rev: s.rev + 1 })),
}));
