/** Remembers the window's bounds and maximized state in `$WORKBENCH_HOME/window-state.json`. Pure Node. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

const DEFAULT: WindowState = { width: 1360, height: 860, maximized: false };

/** Reads the saved state; falls back to defaults for a missing or bad file or absurd sizes. */
export function loadWindowState(home: string): WindowState {
  try {
    const s = JSON.parse(readFileSync(join(home, 'window-state.json'), 'utf8')) as Partial<WindowState>;
    const ok = (n: unknown, min: number) => typeof n === 'number' && Number.isFinite(n) && n >= min;
    if (!ok(s.width, 400) || !ok(s.height, 300)) return { ...DEFAULT };
    return {
      x: typeof s.x === 'number' ? s.x : undefined,
      y: typeof s.y === 'number' ? s.y : undefined,
      width: s.width!,
      height: s.height!,
      maximized: Boolean(s.maximized),
    };
  } catch {
    return { ...DEFAULT };
  }
}

/** Writes the state (best effort). */
export function saveWindowState(home: string, state: WindowState): void {
  try {
    writeFileSync(join(home, 'window-state.json'), JSON.stringify(state));
  } catch {
    // not worth failing the quit for
  }
}
