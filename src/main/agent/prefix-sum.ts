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

/** Chains kept per first message: a round may sum the thread and a compacted copy of it. */
const CHAINS_PER_START = 4;

/**
 * A remembered sum of `measure`. Chains are keyed by their first message, so threads run side by
 * side keep their own, and a few are kept per first message (most recently used first). `msgs` is
 * compared with the chain sharing the longest start with it, position by position by identity:
 * only messages that differ from the chain's at their position, or come after its end, are measured.
 * So a thread that grew, or a compacted copy whose pruned outputs changed in a few places, costs a
 * pointer comparison per message and a measure per new message.
 * Contract: `total(msgs)` equals the plain sum of `measure` over `msgs` provided a message object
 * never changes once made (none does: a changed message is a new object); `measure` must be pure.
 */
export function createPrefixSum(measure: (m: Message) => number): PrefixSum {
  const chains = new WeakMap<Message, Chain[]>();
  return {
    total(msgs) {
      if (msgs.length === 0) return 0;
      let list = chains.get(msgs[0]);
      if (!list) {
        list = [];
        chains.set(msgs[0], list);
      }
      let best: Chain | undefined;
      let k = 0;
      for (const chain of list) {
        const shared = sharedPrefixLength(chain.refs, msgs);
        if (!best || shared > k) [best, k] = [chain, shared];
      }
      let chain: Chain;
      // The chain used last is kept when another array departs from it (a thread and its compacted
      // copy take turns): the new one starts as a copy of its shared part, in a free or the oldest slot.
      if (best && (k === msgs.length || k === best.refs.length || best !== list[0])) chain = best;
      else {
        chain = list.length < CHAINS_PER_START ? { refs: [], sums: [0] } : list[list.length - 1];
        if (chain !== best) {
          chain.refs = best ? best.refs.slice(0, k) : [];
          chain.sums = best ? best.sums.slice(0, k + 1) : [0];
        }
      }
      const at = list.indexOf(chain);
      if (at !== 0) {
        if (at > 0) list.splice(at, 1);
        list.unshift(chain);
      }
      if (k === msgs.length) return chain.sums[k];
      const { refs, sums } = chain;
      // Positions both have: reuse the measure of a message that is still the same object.
      const both = Math.min(refs.length, msgs.length);
      let before = sums[k];
      for (let i = k; i < both; i++) {
        const after = sums[i + 1];
        const m = msgs[i];
        sums[i + 1] = sums[i] + (refs[i] === m ? after - before : measure(m));
        refs[i] = m;
        before = after;
      }
      refs.length = both;
      sums.length = both + 1;
      for (let i = both; i < msgs.length; i++) {
        const m = msgs[i];
        refs.push(m);
        sums.push(sums[i] + measure(m));
      }
      return sums[msgs.length];
    },
  };
}
