/**
 * Claude Code's `permissions.additionalDirectories`: folders its tools work in besides the launch
 * folder (docs/security.md#working-directories). Read from the same settings files as the permission
 * rules; a workspace's files widen what the agent reaches, so they count once it is trusted. Relative
 * entries resolve against the workspace, as Claude Code resolves them against where it runs.
 */
import { homedir } from 'node:os';
import type { ReadSettingsFile } from '../user-hooks/claude-config.ts';
import { parsedSettings, readClaudeSettingsFiles } from '../user-hooks/claude-config.ts';
import { isRecord } from '../user-hooks/json-output.ts';
import {
  checkWorkingDirs,
  type WorkingDirRequest,
  type WorkingDirs,
} from '../tools/working-dirs.ts';

/**
 * The working directories the settings files add, checked (tools/working-dirs.ts).
 * Contract: never throws; what is malformed, untrusted or refused is a diagnostic.
 */
export function claudeWorkingDirs(
  files: readonly ReadSettingsFile[],
  o: { workspace: string; home: string; workbenchHome: string; trusted: boolean },
): { dirs: string[]; diagnostics: string[] } {
  const requests: WorkingDirRequest[] = [];
  const diagnostics: string[] = [];
  for (const f of parsedSettings(files)) {
    const permissions = isRecord(f.data) ? f.data.permissions : undefined;
    const items = isRecord(permissions) ? permissions.additionalDirectories : undefined;
    if (items === undefined) continue;
    const from = `${f.path}: permissions.additionalDirectories`;
    if (!Array.isArray(items)) {
      diagnostics.push(`${from} must be a list of folders`);
      continue;
    }
    if (f.scope === 'workspace' && !o.trusted) {
      if (items.length)
        diagnostics.push(
          `${from} is not read until the workspace is trusted (\`workbench trust DIR\`)`,
        );
      continue;
    }
    for (const item of items) {
      if (typeof item === 'string' && item.trim() !== '')
        requests.push({ text: item.trim(), base: o.workspace, from });
      else diagnostics.push(`${from}: ${JSON.stringify(item)} is not a folder`);
    }
  }
  const checked: WorkingDirs = checkWorkingDirs(requests, o);
  return { dirs: checked.dirs, diagnostics: [...diagnostics, ...checked.refused] };
}

/**
 * The working directories the settings add to runs in `workspace` (a run's pipeline, its MCP
 * servers' roots, the Settings panel). `workbenchHome` is $WORKBENCH_HOME; `claudeSettings` the
 * files as a run already read them, else they are read here. Contract: never throws.
 */
export async function workspaceWorkingDirs(o: {
  workspace: string;
  workbenchHome: string;
  trusted: boolean;
  claudeSettings?: readonly ReadSettingsFile[];
}): Promise<{ dirs: string[]; diagnostics: string[] }> {
  const files = o.claudeSettings ?? (await readClaudeSettingsFiles(o.workspace, o.workbenchHome));
  return claudeWorkingDirs(files, { ...o, home: homedir() });
}
