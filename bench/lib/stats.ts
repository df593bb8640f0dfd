/** Sampling helpers: warm-up runs, then repeated runs summarised as median, min and max. */

/** One measured figure. `runs` is the number of samples behind median/min/max. */
export interface Figure {
  label: string;
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** A performance goal (docs/performance.md) and where the figure stands against it. */
export interface Goal {
  label: string;
  /** Key of the figure the goal is read from (or a derived value given in `value`). */
  figure?: string;
  value: number | null;
  unit: string;
  target: number;
  /** True for a strict `<` goal (e.g. RSS < 174 MiB). */
  strict?: boolean;
  /** `met` is null when the figure could not be taken (e.g. a module not built yet). */
  met: boolean | null;
  note?: string;
}

export interface GroupResult {
  group: string;
  quick: boolean;
  figures: Record<string, Figure>;
  goals: Goal[];
  notes: string[];
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Summarises samples into a Figure (rounded to 4 significant digits for readability). */
export function figure(label: string, unit: string, samples: number[]): Figure {
  return {
    label,
    unit,
    median: round(median(samples)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    runs: samples.length,
  };
}

/** A derived figure (a ratio or difference of medians) with min/max from the paired samples when given. */
export function derived(label: string, unit: string, value: number, pairs?: number[]): Figure {
  if (pairs && pairs.length) return { ...figure(label, unit, pairs), median: round(value) };
  return { label, unit, median: round(value), min: round(value), max: round(value), runs: 1 };
}

export function round(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.abs(v))));
  return Number(v.toFixed(Math.min(digits, 6)));
}

/** Runs `fn` `warmup` times untimed, then `runs` times; `fn` may return its own measurement in ms. */
export async function sample(
  runs: number,
  warmup: number,
  fn: () => Promise<number | void> | number | void,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const own = await fn();
    out.push(typeof own === 'number' ? own : performance.now() - t0);
  }
  return out;
}

/** A goal "value ≤ target" (or `<` with strict). */
export function goal(
  label: string,
  value: number | null,
  unit: string,
  target: number,
  opts: { figure?: string; strict?: boolean; note?: string } = {},
): Goal {
  const met = value === null ? null : opts.strict ? value < target : value <= target;
  return {
    label,
    figure: opts.figure,
    value: value === null ? null : round(value),
    unit,
    target,
    ...(opts.strict ? { strict: true } : {}),
    met,
    ...(opts.note ? { note: opts.note } : {}),
  };
}
