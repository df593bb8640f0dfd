/** What the memory, skills and hooks panel services need from the workbench (injected, so tests can use temp dirs). */
import type { WorkbenchSettings } from '../../../shared/types/index.ts';
import type { HookRunStore } from '../../store/types.ts';
import type { TrustStore } from '../../user-hooks/index.ts';
import type { LastRequest } from '../types.ts';

export interface PanelDeps {
  /** $WORKBENCH_HOME. */
  home: string;
  settings: {
    get(): WorkbenchSettings;
    update(patch: Partial<WorkbenchSettings>): Promise<WorkbenchSettings>;
  };
  trust: TrustStore;
  hookRuns?: HookRunStore;
  lastRequest?: (threadId: string) => LastRequest | undefined;
}

/** An expected failure of a panel call; `code` maps onto the IPC error codes. */
export class PanelError extends Error {
  readonly code: 'invalid_args' | 'not_found' | 'conflict' | 'forbidden';
  constructor(code: PanelError['code'], message: string) {
    super(message);
    this.name = 'PanelError';
    this.code = code;
  }
}

/** A rough token count, as the summarization hook estimates (characters / 4). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
