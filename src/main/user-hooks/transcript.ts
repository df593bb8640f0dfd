/** The JSONL transcript Claude-dialect hooks read through `transcript_path`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../../shared/types/index.ts';

/** Path of a thread's transcript under the workbench home. */
export const transcriptPath = (home: string, threadId: string): string => join(home, 'transcripts', `${threadId.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`);

/** Writes the thread's messages, one JSON object a line; returns the path. Contract: never throws. */
export function writeTranscript(home: string, threadId: string, messages: readonly Message[]): string {
  const path = transcriptPath(home, threadId);
  try {
    mkdirSync(join(home, 'transcripts'), { recursive: true, mode: 0o700 });
    writeFileSync(path, messages.map((m) => JSON.stringify(m)).join('\n') + (messages.length ? '\n' : ''), { mode: 0o600 });
  } catch {
    // A transcript we cannot write is a hook's loss, not the run's.
  }
  return path;
}
