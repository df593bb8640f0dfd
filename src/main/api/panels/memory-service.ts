/**
 * The memory panel's service: reads and writes the user and workspace AGENTS.md (atomically, refusing
 * to overwrite a file changed on disk since it was read) and shows the effective context.
 */
import { join } from 'node:path';
import type { EffectiveContext, MemoryDocument, SaveResult } from '../../../shared/ipc/contract.ts';
import { loadMemory, readsWorkingDirMemory } from '../../memory/loader.ts';
import { readClaudeSettingsFiles, settingsEnv } from '../../user-hooks/claude-config.ts';
import { workspaceWorkingDirs } from '../../middleware/claude-working-dirs.ts';
import { loadAgentProfile } from '../../agents/profile.ts';
import {
  ConflictError,
  readTextOrNull,
  versionOf,
  writeFileAtomic,
} from '../../fs/atomic-write.ts';
import { estimateTextTokens } from '../../agent/tokens.ts';
import type { PanelDeps } from './panel-deps.ts';

export type MemoryScopeArg = 'user' | 'workspace';

export interface MemoryService {
  read(args: { scope: MemoryScopeArg; workspace: string }): Promise<MemoryDocument>;
  /** Contract: never overwrites a file whose version is not `baseVersion`; answers `conflict` with theirs. */
  write(args: {
    scope: MemoryScopeArg;
    workspace: string;
    content: string;
    baseVersion: string;
  }): Promise<SaveResult<MemoryDocument>>;
  effective(args: { workspace: string; threadId?: string }): Promise<EffectiveContext>;
}

/** The file a scope edits: the one the memory hook reads (AGENTS.md, or CLAUDE.md when only that exists). */
async function memoryPath(home: string, workspace: string, scope: MemoryScopeArg): Promise<string> {
  const loaded = await loadMemory({ home, workspace });
  return (
    loaded.sources.find((s) => s.scope === scope)?.path ??
    join(scope === 'user' ? home : workspace, 'AGENTS.md')
  );
}

/** Creates the memory service. */
export function createMemoryService(deps: PanelDeps): MemoryService {
  const read = async (scope: MemoryScopeArg, workspace: string): Promise<MemoryDocument> => {
    const path = await memoryPath(deps.home, workspace, scope);
    const content = await readTextOrNull(path);
    return {
      scope,
      path,
      content: content ?? '',
      version: versionOf(content),
      exists: content !== null,
    };
  };
  return {
    read: (a) => read(a.scope, a.workspace),
    async write(a) {
      const path = await memoryPath(deps.home, a.workspace, a.scope);
      try {
        await writeFileAtomic(path, a.content, { expectedVersion: a.baseVersion });
      } catch (err) {
        if (err instanceof ConflictError)
          return { status: 'conflict', document: await read(a.scope, a.workspace) };
        throw err;
      }
      return {
        status: 'saved',
        document: {
          scope: a.scope,
          path,
          content: a.content,
          version: versionOf(a.content),
          exists: true,
        },
      };
    },
    async effective(a) {
      // The same sources a run uses: an untrusted workspace's memory.paths are ignored, and so are
      // the working directories its settings would add.
      const trusted = deps.trust.isTrusted(a.workspace);
      const { profile } = await loadAgentProfile(a.workspace, { trusted });
      const claudeSettings = await readClaudeSettingsFiles(a.workspace, deps.home);
      const workingDirs = readsWorkingDirMemory(settingsEnv(claudeSettings, trusted))
        ? (
            await workspaceWorkingDirs({
              workspace: a.workspace,
              workbenchHome: deps.home,
              trusted,
              claudeSettings,
            })
          ).dirs
        : [];
      const memory = await loadMemory({
        home: deps.home,
        workspace: a.workspace,
        extraPaths: profile.memory.paths,
        workingDirs,
        folders: a.threadId ? deps.memoryFolders?.(a.threadId) : undefined,
        rules: a.threadId ? deps.memoryRules?.(a.threadId) : undefined,
      });
      const last = a.threadId ? deps.lastRequest?.(a.threadId) : undefined;
      return {
        system: last?.system ?? null,
        ...(last
          ? {
              threadId: last.thread_id,
              model: last.model,
              at: last.at,
              estimatedTokens: estimateTextTokens(last.system),
            }
          : {}),
        memory: {
          text: memory.text,
          tokens: estimateTextTokens(memory.text),
          sources: memory.sources,
        },
      };
    },
  };
}
