/**
 * Claude Code plugins as Claude Code lays them out (docs/hooks.md, Coming from Claude Code): the
 * `enabledPlugins` map of the settings files names plugins `name@marketplace`, and
 * `<claude dir>/plugins/installed_plugins.json` says where each is installed; an enabled plugin's
 * hooks are its `hooks/hooks.json`.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { isRecord } from './json-output.ts';

/** One settings file's parsed content, with the scope that decides trust. */
export interface SettingsData {
  scope: 'workspace' | 'user';
  /** Higher wins for `enabledPlugins`: local > project > user, as in Claude Code. */
  precedence: number;
  data: unknown;
}

export interface EnabledPlugin {
  id: string;
  root: string;
  /** 'user' when the user's own settings enable it; a plugin only a workspace enables needs trust. */
  scope: 'workspace' | 'user';
}

interface InstallEntry {
  scope?: unknown;
  projectPath?: unknown;
  installPath?: unknown;
}

/** The install folder of a plugin for this workspace: a project install of it first, else the user install. */
function installPath(entries: unknown, workspace: string, pluginsDir: string): string | undefined {
  const list = (Array.isArray(entries) ? entries : [entries]).filter(isRecord) as InstallEntry[];
  const forProject = list.find(
    (e) => typeof e.projectPath === 'string' && resolve(e.projectPath) === resolve(workspace),
  );
  const forUser = list.find((e) => e.scope === undefined || e.scope === 'user');
  const path = (forProject ?? forUser)?.installPath;
  if (typeof path !== 'string' || path === '') return undefined;
  return isAbsolute(path) ? path : join(pluginsDir, path);
}

/**
 * The enabled, installed plugins. Contract: never throws; a missing or unreadable
 * installed_plugins.json means no plugins.
 */
export function enabledPlugins(
  settings: readonly SettingsData[],
  workspace: string,
  claudeDir: string,
): EnabledPlugin[] {
  const decided = new Map<string, { on: boolean; precedence: number }>();
  const byUser = new Set<string>();
  for (const s of settings) {
    if (!isRecord(s.data) || !isRecord(s.data.enabledPlugins)) continue;
    for (const [id, on] of Object.entries(s.data.enabledPlugins)) {
      if (typeof on !== 'boolean') continue;
      if (on && s.scope === 'user') byUser.add(id);
      const prev = decided.get(id);
      if (!prev || s.precedence > prev.precedence)
        decided.set(id, { on, precedence: s.precedence });
    }
  }
  if (![...decided.values()].some((d) => d.on)) return [];
  const pluginsDir = join(claudeDir, 'plugins');
  let installed: unknown;
  try {
    installed = JSON.parse(readFileSync(join(pluginsDir, 'installed_plugins.json'), 'utf8'));
  } catch {
    return [];
  }
  // Version 2 keeps the map under `plugins`; version 1 was the map itself.
  const map = isRecord(installed) && isRecord(installed.plugins) ? installed.plugins : installed;
  if (!isRecord(map)) return [];
  const plugins: EnabledPlugin[] = [];
  for (const [id, d] of decided) {
    const root = d.on ? installPath(map[id], workspace, pluginsDir) : undefined;
    if (root) plugins.push({ id, root, scope: byUser.has(id) ? 'user' : 'workspace' });
  }
  return plugins;
}
