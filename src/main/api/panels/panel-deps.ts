/** What the memory, skills and hooks panel services need from the workbench (injected, so tests can use temp dirs). */
import type { WorkbenchSettings } from '../../../shared/types/index.ts';
import type { HookRunStore, ThreadStore } from '../../store/types.ts';
import type { TrustStore } from '../../user-hooks/index.ts';
import type { LastRequest } from '../types.ts';
import type { HandlerRunner } from '../../user-hooks/claude-hooks.ts';

export interface PanelDeps {
  /** $WORKBENCH_HOME. */
  home: string;
  settings: {
    get(): WorkbenchSettings;
    update(patch: Partial<WorkbenchSettings>): Promise<WorkbenchSettings>;
  };
  trust: TrustStore;
  hookRuns?: HookRunStore;
  /** Where `hooks.replay` reads recorded tool calls from. */
  threads?: Pick<ThreadStore, 'get' | 'list'>;
  lastRequest?: (threadId: string) => LastRequest | undefined;
  /** The workspace subfolders whose memory the thread follows (docs/memory.md, Subfolder memory). */
  memoryFolders?: (threadId: string) => string[];
  /** The Claude Code rules with `paths` that joined a thread's memory. */
  memoryRules?: (threadId: string) => string[];
  /** What a tested or replayed Claude http or prompt handler needs: the variables, the model. */
  handlerRunner?: () => HandlerRunner;
}
