/**
 * The skill folders of plugins (docs/skills.md). Claude Code: a plugin is enabled in
 * `~/.claude/settings.json` `enabledPlugins` (`"name@marketplace": true`) and installed where
 * `~/.claude/plugins/installed_plugins.json` says (`installPath`); its skills are `<installPath>/skills`.
 * Kodelet: every plugin installed as `<ws>/.kodelet/plugins/<org@repo>/` or under `~/.kodelet/plugins/`
 * has its skills in `skills/` (the workspace's first, as Kodelet ranks them).
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readTextIfFile } from '../fs/read-text-if-file.ts';
import { existsAs } from '../fs/stat-if-any.ts';
import { claudeConfigDir } from '../env/claude-config-dir.ts';

/**
 * The `skills` folders of enabled, installed plugins.
 * Contract: never rejects; missing or unreadable files give no folders.
 */
export async function pluginSkillRoots(
  workspace: string,
): Promise<Array<{ plugin: string; dir: string }>> {
  const kodelet = [
    ...(await kodeletPluginSkillRoots(join(workspace, '.kodelet'))),
    ...(await kodeletPluginSkillRoots(join(homedir(), '.kodelet'))),
  ];
  return [...(await claudePluginSkillRoots()), ...kodelet];
}

async function kodeletPluginSkillRoots(
  kodeletDir: string,
): Promise<Array<{ plugin: string; dir: string }>> {
  const dir = join(kodeletDir, 'plugins');
  if (!existsAs(dir, 'directory')) return [];
  const plugins = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return plugins
    .filter((p) => p.isDirectory() && p.name.includes('@'))
    .map((p) => p.name)
    .sort()
    .map((name) => ({
      plugin: name.replace('@', '/'),
      dir: join(kodeletDir, 'plugins', name, 'skills'),
    }));
}

async function claudePluginSkillRoots(): Promise<Array<{ plugin: string; dir: string }>> {
  const claude = claudeConfigDir();
  const settings = await readJson(join(claude, 'settings.json'));
  const installed = await readJson(join(claude, 'plugins', 'installed_plugins.json'));
  const enabled = record(record(settings).enabledPlugins);
  // Version 1 maps a plugin to one install, version 2 to a list of installs (one per scope).
  const plugins = record(record(installed).plugins);
  const out: Array<{ plugin: string; dir: string }> = [];
  for (const [plugin, on] of Object.entries(enabled)) {
    if (on !== true) continue;
    const entry = plugins[plugin];
    for (const install of Array.isArray(entry) ? entry : [entry]) {
      const path = record(install).installPath;
      if (typeof path === 'string' && path) out.push({ plugin, dir: join(path, 'skills') });
    }
  }
  return out;
}

async function readJson(path: string): Promise<unknown> {
  const text = await readTextIfFile(path);
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : {};
}
