/**
 * Lane (tid) assignment for Chrome/Perfetto traces. Slices on one track must nest, so two spans
 * that overlap without one containing the other never share a lane; a span prefers its parent's
 * lane (nested under it), then the lowest lane it fits on, then a new one.
 */

export interface LaneInterval {
  id: string;
  parentId?: string;
  /** Integer microseconds: the same numbers the trace file holds, so "fits" means what Perfetto sees. */
  start: number;
  end: number;
}

/**
 * Assigns lanes 0..n-1. Contract: on every lane, any two intervals are disjoint or nested.
 * O(n log n + n·lanes) amortised: each lane keeps a stack of open intervals, nested by construction.
 */
export function assignLanes(intervals: readonly LaneInterval[]): Map<string, number> {
  // Parents start no later than children and outlast them: start asc, longer first, keeps parents first.
  const order = intervals.slice().sort((a, b) => a.start - b.start || b.end - a.end);
  const stacks: LaneInterval[][] = [];
  const lanes = new Map<string, number>();

  const fits = (lane: number, iv: LaneInterval): boolean => {
    const stack = stacks[lane];
    // Intervals ended by now are disjoint from this one and from everything after it (sorted by start).
    while (stack.length > 0 && stack[stack.length - 1].end <= iv.start) stack.pop();
    return stack.length === 0 || stack[stack.length - 1].end >= iv.end;
  };

  for (const iv of order) {
    const parentLane = iv.parentId !== undefined ? lanes.get(iv.parentId) : undefined;
    let lane = parentLane !== undefined && fits(parentLane, iv) ? parentLane : -1;
    for (let l = 0; lane < 0 && l < stacks.length; l++) if (fits(l, iv)) lane = l;
    if (lane < 0) {
      lane = stacks.length;
      stacks.push([]);
    }
    stacks[lane].push(iv);
    lanes.set(iv.id, lane);
  }
  return lanes;
}
