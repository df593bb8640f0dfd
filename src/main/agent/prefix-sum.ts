/**
 * Sums of a per-message measure (tokens, characters) over message arrays that mostly extend the
 * array seen before: a thread grows by appending, so each round only the new messages are measured
 * (docs/performance.md).
 */
import type { Message } from '../../shared/types/index.ts';

/** The messages last summed in one chain, and `sums[i]` = the measure of the first i of them. */
interface Chain {
  refs: Message[];
  sums: number[];
}

/** How many leading messages `a` and `b` share, compared by identity (no field is read). */
export function sharedPrefixLength(a: readonly Message[], b: readonly Message[]): number {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a[k] === b[k]) k++;
  return k;
}

/** Sums a per-message measure over an array, remembering the result per chain of messages. */
export interface PrefixSum {
  total(msgs: readonly Message[]): number;
}

/**
 * A remembered sum of `measure`. Chains are keyed by their first message, so threads run side by
 * side keep their own; the part of `msgs` equal (by identity) to the chain's start is not measured
 * again, any message after the first difference is.
 * Contract: `total(msgs)` equals the plain sum of `measure` over `msgs` provided a message object
 * never changes once made (none does: a changed message is a new object); `measure` must be pure.
 */
export function createPrefixSum(measure: (m: Message) => number): PrefixSum {
  const chains = new WeakMap<Message, Chain>();
  return {
    total(msgs) {
      if (msgs.length === 0) return 0;
      let chain = chains.get(msgs[0]);
      if (!chain) {
        chain = { refs: [], sums: [0] };
        chains.set(msgs[0], chain);
      }
      const { refs, sums } = chain;
      const k = sharedPrefixLength(refs, msgs);
      if (k === msgs.length) return sums[k];
      // A shorter array that is a prefix was answered above; here the chain diverges at k or grows.
      refs.length = k;
      sums.length = k + 1;
      for (let i = k; i < msgs.length; i++) {
        const m = msgs[i];
        refs.push(m);
        sums.push(sums[i] + measure(m));
      }
      return sums[msgs.length];
    },
  };
}
