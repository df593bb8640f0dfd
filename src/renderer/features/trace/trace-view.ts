/** Zoom/pan window math and formatting for the timeline (pure). */

/** The visible window as fractions of each run's duration: [from, to] within [0, 1]. */
export interface ViewWindow {
  from: number;
  to: number;
}

/** Whole run visible. */
export const FULL_VIEW: ViewWindow = { from: 0, to: 1 };

const MIN_WIDTH = 0.0005;

function clamp(v: ViewWindow): ViewWindow {
  const width = Math.min(1, Math.max(MIN_WIDTH, v.to - v.from));
  const from = Math.min(1 - width, Math.max(0, v.from));
  return { from, to: from + width };
}

/** Zooms by `factor` (< 1 = in) keeping the point at `anchor` (0..1 across the track) in place. */
export function zoomAt(v: ViewWindow, factor: number, anchor: number): ViewWindow {
  const width = v.to - v.from;
  const at = v.from + anchor * width;
  const next = Math.min(1, Math.max(MIN_WIDTH, width * factor));
  return clamp({ from: at - anchor * next, to: at - anchor * next + next });
}

/** Pans by `delta` track widths (positive = later). */
export function panBy(v: ViewWindow, delta: number): ViewWindow {
  const width = v.to - v.from;
  return clamp({ from: v.from + delta * width, to: v.to + delta * width });
}

/** Left and width in percent of the track for an interval of a run. */
export function barGeometry(
  start: number,
  end: number,
  runStart: number,
  runDur: number,
  v: ViewWindow,
): { left: number; width: number } {
  const dur = runDur > 0 ? runDur : 1;
  const width = v.to - v.from;
  const s = (start - runStart) / dur;
  const e = (end - runStart) / dur;
  return { left: ((s - v.from) / width) * 100, width: ((e - s) / width) * 100 };
}

/** `850 ms`, `12.3 s`, `2 m 05 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m} m ${String(s).padStart(2, '0')} s`;
}

/** Pretty JSON when the text parses, else the text. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
