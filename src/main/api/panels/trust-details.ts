/**
 * Exactly what a workspace would run once trusted, for the trust prompt: each hook program, each
 * settings hook's command (by event and matcher) and each MCP server's command line. Read-only and
 * forgiving: a file that does not parse is shown as such, never thrown (docs/hooks.md, "Trust").
 */
import { readdir } from 'node:fs/promises';
import { readTextIfFile } from '../../fs/read-text-if-file.ts';

/** Most lines one item lists before saying how many more there are. */
const MAX_LINES = 40;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function capped(lines: string[]): string {
  if (lines.length <= MAX_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_LINES), `… (${lines.length - MAX_LINES} more)`].join('\n');
}

async function readJson(path: string): Promise<unknown> {
  try {
    // A FIFO or a folder is not read (the prompt would wait for a writer): it does not parse.
    const text = await readTextIfFile(path);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** The entries of a hooks or skills folder, disabled hooks marked. */
export async function folderDetail(dir: string): Promise<string> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
  return capped(
    names.sort().map((n) => (n.endsWith('.disable') ? `${n.slice(0, -8)} (switched off)` : n)),
  );
}

/**
 * `Event [matcher]: command` for every command hook of a Claude Code style settings file, and each
 * Claude Code plugin it switches on (`enabledPlugins`: the plugin's hooks and MCP servers run too).
 */
export async function settingsHooksDetail(path: string): Promise<string> {
  const data = await readJson(path);
  if (data === undefined) return '(does not parse as JSON: its hooks would not load)';
  if (!isRecord(data)) return '(no hooks)';
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(isRecord(data.hooks) ? data.hooks : {})) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
      const matcher =
        typeof group.matcher === 'string' && group.matcher ? ` [${group.matcher}]` : '';
      for (const h of group.hooks) {
        if (isRecord(h) && typeof h.command === 'string')
          lines.push(`${event}${matcher}: ${h.command}`);
      }
    }
  }
  for (const [id, on] of Object.entries(isRecord(data.enabledPlugins) ? data.enabledPlugins : {})) {
    if (on === true) lines.push(`plugin ${id}: its hooks and MCP servers, where it is installed`);
  }
  return lines.length ? capped(lines) : '(no hooks)';
}

