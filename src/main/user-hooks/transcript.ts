/**
 * The transcript Claude Code hooks read through `transcript_path` (docs/hooks.md): one JSON object a
 * line in Claude Code's format — `type` user/assistant, `message.content[]` blocks (`text`,
 * `tool_use` with Claude tool names and inputs, `tool_result` in a user line), `uuid`/`parentUuid`,
 * `sessionId`, `cwd`, `timestamp`. Kept current by appending the messages produced since the last
 * hook; the file is rewritten only when the history changed underneath (compaction, a new process).
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../../shared/types/index.ts';
import { dialectToolName, toDialectInput, type ToolLookup } from './tool-dialect.ts';

/** Path of a thread's transcript under the workbench home. */
export const transcriptPath = (home: string, threadId: string): string =>
  join(home, 'transcripts', `${threadId.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`);

export interface TranscriptSource {
  home: string;
  threadId: string;
  /** The workspace root: the lines' `cwd` and the base of absolute paths in tool inputs. */
  cwd: string;
  tools: ToolLookup;
}

interface Written {
  /** Messages already in the file. */
  count: number;
  /** The last of them, to notice a history that was replaced (compaction, mutate). */
  last?: Message;
  lastUuid: string | null;
}
const written = new Map<string, Written>();

type Block = Record<string, unknown>;

function blocksOf(
  m: Message,
  src: TranscriptSource,
): { type: 'user' | 'assistant'; content: Block[] } | undefined {
  if (m.role === 'user') return { type: 'user', content: [{ type: 'text', text: m.content }] };
  if (m.role === 'tool') {
    const result: Block = {
      type: 'tool_result',
      tool_use_id: m.tool_call_id ?? '',
      content: m.content,
    };
    if (m.status && m.status !== 'ok') result.is_error = true;
    return { type: 'user', content: [result] };
  }
  if (m.role !== 'assistant') return undefined;
  const content: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
  for (const call of m.tool_calls ?? []) {
    const name = dialectToolName(src.tools, 'claude', call.name);
    content.push({
      type: 'tool_use',
      id: call.id,
      name,
      input: toDialectInput(src.tools, 'claude', call.name, call.args, src.cwd),
    });
  }
  return { type: 'assistant', content };
}

function linesOf(messages: readonly Message[], src: TranscriptSource, state: Written): string {
  let out = '';
  const timestamp = new Date().toISOString();
  for (const m of messages) {
    const shaped = blocksOf(m, src);
    if (!shaped) continue;
    const uuid = randomUUID();
    const line = {
      parentUuid: state.lastUuid,
      isSidechain: false,
      userType: 'external',
      cwd: src.cwd,
      sessionId: src.threadId,
      type: shaped.type,
      message: { role: shaped.type, content: shaped.content },
      uuid,
      timestamp,
    };
    out += `${JSON.stringify(line)}\n`;
    state.lastUuid = uuid;
  }
  return out;
}

/**
 * Brings the thread's transcript up to `messages` and returns its path.
 * Contract: never throws; appends only the new messages unless the history was replaced.
 */
export function writeTranscript(src: TranscriptSource, messages: readonly Message[]): string {
  const path = transcriptPath(src.home, src.threadId);
  try {
    const prev = written.get(path);
    const current =
      prev &&
      prev.count <= messages.length &&
      (prev.count === 0 || messages[prev.count - 1] === prev.last);
    if (current && prev.count === messages.length) return path;
    mkdirSync(join(src.home, 'transcripts'), { recursive: true, mode: 0o700 });
    if (current) {
      appendFileSync(path, linesOf(messages.slice(prev.count), src, prev), { mode: 0o600 });
      prev.count = messages.length;
      prev.last = messages.at(-1);
      return path;
    }
    const state: Written = { count: messages.length, last: messages.at(-1), lastUuid: null };
    writeFileSync(path, linesOf(messages, src, state), { mode: 0o600 });
    written.set(path, state);
  } catch {
    // A transcript we cannot write is a hook's loss, not the run's.
    written.delete(path);
  }
  return path;
}
