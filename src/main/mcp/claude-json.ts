/**
 * Claude Code's own MCP configuration in its global file (`~/.claude.json`, or
 * `$CLAUDE_CONFIG_DIR/.claude.json`), where `claude mcp add` writes (docs/tools.md#coming-from-claude-code):
 * top-level `mcpServers` (its user scope: every folder) and, under `projects["<folder>"]`,
 * `mcpServers` (its local scope: that folder only), `disabledMcpServers` (switched off there with
 * `/mcp`) and `disabledMcpjsonServers` (`.mcp.json` servers the user rejected there).
 * The file also holds Claude Code's session state and can reach megabytes, so it is parsed again only
 * when it changes; it is the user's own file and never needs trust.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readTextNonBlocking } from '../fs/read-text-if-file.ts';
import { statIfAny } from '../fs/stat-if-any.ts';
import { isRecord } from '../user-hooks/json-output.ts';

export interface ClaudeJsonMcp {
  file: string;
  /** Top-level `mcpServers`, entries unchecked. */
  user: Record<string, unknown>;
  /** `projects[<workspace>].mcpServers`, entries unchecked. */
  local: Record<string, unknown>;
  /** `projects[<workspace>].disabledMcpServers`. */
  disabled: string[];
  /** `projects[<workspace>].disabledMcpjsonServers`. */
  rejected: string[];
}

/** Larger than any `~/.claude.json` seen in use (a few MB with long histories); past it, not read. */
const MAX_BYTES = 64 * 1024 * 1024;

/** Where Claude Code keeps its global config: `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`. */
export function claudeJsonPath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  return dir ? join(dir, '.claude.json') : join(homedir(), '.claude.json');
}

type Parsed = { mcpServers?: unknown; projects?: unknown };
const cache = new Map<string, { stamp: string; parsed: Parsed | string }>();

/**
 * The MCP part of `file` for `workspace`: undefined when there is no file, a message when it cannot
 * be used. Contract: never rejects.
 */
export async function readClaudeJsonMcp(
  file: string,
  workspace: string,
): Promise<ClaudeJsonMcp | string | undefined> {
  const parsed = await parse(file);
  if (parsed === undefined || typeof parsed === 'string') return parsed;
  const project = projectEntry(parsed.projects, workspace);
  const names = (v: unknown) =>
    Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : [];
  return {
    file,
    user: isRecord(parsed.mcpServers) ? parsed.mcpServers : {},
    local: isRecord(project?.mcpServers) ? project.mcpServers : {},
    disabled: names(project?.disabledMcpServers),
    rejected: names(project?.disabledMcpjsonServers),
  };
}

async function parse(file: string): Promise<Parsed | string | undefined> {
  let st;
  try {
    st = statIfAny(file);
  } catch (err) {
    return `${file}: cannot read: ${(err as Error).message}`;
  }
  if (!st) return undefined;
  if (!st.isFile()) return `${file}: not a regular file`;
  if (st.size > MAX_BYTES) return `${file}: larger than 64 MB, not read`;
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.parsed;
  let parsed: Parsed | string;
  try {
    const json: unknown = JSON.parse(await readTextNonBlocking(file));
    parsed = isRecord(json) ? mcpPart(json) : `${file}: expected a JSON object`;
  } catch (err) {
    // Not cached: Claude Code rewrites the file in place, so a read mid-write is tried again next run.
    cache.delete(file);
    return `${file}: cannot read its MCP servers: ${(err as Error).message}`;
  }
  cache.set(file, { stamp, parsed });
  return parsed;
}

/** Only what is about MCP servers is kept: the rest of the file (histories, caches) can be megabytes. */
function mcpPart(json: Record<string, unknown>): Parsed {
  const projects: Record<string, unknown> = {};
  if (isRecord(json.projects)) {
    for (const [key, entry] of Object.entries(json.projects)) {
      if (!isRecord(entry)) continue;
      const { mcpServers, disabledMcpServers, disabledMcpjsonServers } = entry;
      if (mcpServers ?? disabledMcpServers ?? disabledMcpjsonServers)
        projects[key] = { mcpServers, disabledMcpServers, disabledMcpjsonServers };
    }
  }
  return { mcpServers: json.mcpServers, projects };
}

/** `projects[<workspace>]`, matched as written or by the folder's real path (Claude Code's key). */
function projectEntry(projects: unknown, workspace: string): Record<string, unknown> | undefined {
  if (!isRecord(projects)) return undefined;
  const keys = new Set([workspace.replace(/(.)\/+$/, '$1')]);
  try {
    keys.add(realpathSync(workspace));
  } catch {
    // A folder that is gone has no real path; the key as written is still looked up.
  }
  for (const key of keys) {
    const entry = projects[key];
    if (isRecord(entry)) return entry;
  }
  return undefined;
}
