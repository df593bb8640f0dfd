/**
 * Pane sizes and visibility (sidebar width, dock width, sidebar shown, full trace view), remembered
 * in localStorage so a reload keeps the layout the user made. See docs/desktop.md.
 */
import { create } from 'zustand';

/** The remembered part of the layout. */
export interface LayoutPrefs {
  sidebarWidth: number;
  dockWidth: number;
  sidebarOpen: boolean;
  /** Width of the span tree column in the trace (the waterfall takes the rest). */
  traceTreeWidth: number;
}

/** The layout store. */
export interface LayoutState extends LayoutPrefs {
  /** The trace timeline takes the main area instead of the chat. */
  traceFull: boolean;
  setSidebarWidth(px: number): void;
  setDockWidth(px: number): void;
  setTraceTreeWidth(px: number): void;
  toggleSidebar(): void;
  setTraceFull(on: boolean): void;
}

const KEY = 'workbench.layout';
/** Bounds of each resizable pane, in CSS pixels. */
export const LIMITS = {
  sidebar: { min: 180, max: 420 },
  dock: { min: 300, max: 900 },
  traceTree: { min: 120, max: 520 },
} as const;

const DEFAULTS: LayoutPrefs = {
  sidebarWidth: 260,
  dockWidth: 520,
  sidebarOpen: true,
  traceTreeWidth: 200,
};

const clamp = (v: number, { min, max }: { min: number; max: number }) =>
  Math.round(Math.min(max, Math.max(min, v)));

function load(): LayoutPrefs {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<LayoutPrefs>;
    return {
      sidebarWidth: clamp(Number(raw.sidebarWidth ?? DEFAULTS.sidebarWidth), LIMITS.sidebar),
      dockWidth: clamp(Number(raw.dockWidth ?? DEFAULTS.dockWidth), LIMITS.dock),
      sidebarOpen: raw.sidebarOpen !== false,
      traceTreeWidth: clamp(
        Number(raw.traceTreeWidth ?? DEFAULTS.traceTreeWidth),
        LIMITS.traceTree,
      ),
    };
  } catch {
    return DEFAULTS;
  }
}

function save(s: LayoutPrefs): void {
  const { sidebarWidth, dockWidth, sidebarOpen, traceTreeWidth } = s;
  try {
    localStorage.setItem(
      KEY,
      JSON.stringify({ sidebarWidth, dockWidth, sidebarOpen, traceTreeWidth }),
    );
  } catch {
    // Private windows may refuse storage; the layout then lasts for this page only.
  }
}

/** Contract: every setter clamps to LIMITS and persists at once. */
export const useLayout = create<LayoutState>()((set, get) => {
  const update = (patch: Partial<LayoutState>) => {
    set(patch);
    save(get());
  };
  return {
    ...load(),
    traceFull: false,
    setSidebarWidth: (px) => update({ sidebarWidth: clamp(px, LIMITS.sidebar) }),
    setDockWidth: (px) => update({ dockWidth: clamp(px, LIMITS.dock) }),
    setTraceTreeWidth: (px) => update({ traceTreeWidth: clamp(px, LIMITS.traceTree) }),
    toggleSidebar: () => update({ sidebarOpen: !get().sidebarOpen }),
    setTraceFull: (traceFull) => set({ traceFull }),
  };
});
