/**
 * `workbench compact THREAD_ID [--model NAME] [--base-url URL]`: summarizes a thread's older messages
 * now and stores the summary, so the next run sends the summary instead of them. The thread keeps
 * its full history.
 */
import { loadAgentProfile } from '../../agents/profile.ts';
import { compactThreadNow, type CompactThreadResult } from '../../middleware/summarization.ts';
import { createOpenAiClient } from '../../llm/openai-client.ts';
import type { LlmClient } from '../../llm/types.ts';
import { openDatabase } from '../../store/database.ts';
import { homePaths, resolveHome } from '../../store/paths.ts';
import { createSettingsStore } from '../../store/settings-store.ts';
import type { Database } from '../../store/types.ts';
import { parse } from '../args.ts';
import { UsageError, type CliCommand } from '../types.ts';

export interface CompactThreadArgs {
  db: Pick<Database, 'threads'>;
  llm: LlmClient;
  model: string;
  threadId: string;
  signal?: AbortSignal;
}

/**
 * Forced compaction of one stored thread, with the context window and compaction settings of its
 * workspace's agent.yaml.
 * Contract: rejects with "unknown thread" for a missing thread and when the summary fails.
 */
export async function compactThread(args: CompactThreadArgs): Promise<CompactThreadResult> {
  const state = args.db.threads.get(args.threadId);
  const summary = args.db.threads.summary(args.threadId);
  if (!state || !summary) throw new Error(`unknown thread ${args.threadId}`);
  const { profile } = await loadAgentProfile(summary.workspace);
  return compactThreadNow({
    store: args.db.threads,
    llm: args.llm,
    model: args.model,
    state,
    contextWindow: profile.context_window,
    compaction: profile.compaction,
    signal: args.signal,
  });
}

export const compactCommand: CliCommand = async (argv, io) => {
  const { values, positionals } = parse(argv, { model: { type: 'string' }, 'base-url': { type: 'string' } });
  const threadId = positionals[0];
  if (!threadId || positionals.length > 1) throw new UsageError('expected "compact THREAD_ID"');
  const home = resolveHome(io.env);
  const settings = createSettingsStore(home).get();
  const db = openDatabase(homePaths(home).db);
  try {
    const summary = db.threads.summary(threadId);
    if (!summary) {
      io.stderr(`workbench compact: unknown thread ${threadId}\n`);
      return 1;
    }
    const { profile } = await loadAgentProfile(summary.workspace);
    const model = values.model ?? (io.env.WORKBENCH_MODEL || undefined) ?? profile.model ?? settings.provider.model;
    const baseURL = values['base-url'] ?? (io.env.OPENAI_BASE_URL || undefined) ?? settings.provider.base_url;
    const llm = createOpenAiClient({ apiKey: io.env.OPENAI_API_KEY ?? '', baseURL });
    const result = await compactThread({ db, llm, model, threadId });
    if (!result.compacted) io.stdout(`thread ${threadId} is too short to compact\n`);
    else {
      io.stdout(
        `compacted thread ${threadId}: ${result.summarized_messages} messages summarized (first ${result.upto} of the thread), ~${result.before_tokens} → ~${result.after_tokens} tokens\n`,
      );
    }
    return 0;
  } catch (err) {
    io.stderr(`workbench compact: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    db.close();
  }
};
