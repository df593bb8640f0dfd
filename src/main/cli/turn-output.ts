/**
 * The CLI's stdout and stderr, written once per turn of the event loop: what a turn prints (a tool's
 * start and end lines, streamed text) goes out in one write per stream, in the order it was printed,
 * after the turn's work — a round's next model request included — instead of one system call per
 * line on the round's path (docs/performance.md). What is still queued when the process exits is
 * written then, synchronously.
 */
import { writeSync } from 'node:fs';

export type Stream = 'stdout' | 'stderr';
export type StreamWriter = (stream: Stream, text: string) => void;

export interface TurnOutput {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Writes what is queued now, with `write` (default: the writer the output was made with). */
  flush(write?: StreamWriter): void;
}

const toProcess: StreamWriter = (stream, text) => void process[stream].write(text);

/** Output queued per turn and sent with `write` (default: the process's streams). */
export function createTurnOutput(write: StreamWriter = toProcess): TurnOutput {
  let queued: { stream: Stream; text: string }[] = [];
  const flush = (to: StreamWriter = write) => {
    const pieces = queued;
    queued = [];
    // Consecutive pieces of one stream go out together; the order across the two streams is kept.
    for (let i = 0; i < pieces.length; ) {
      const { stream } = pieces[i]!;
      let text = '';
      for (; i < pieces.length && pieces[i]!.stream === stream; i++) text += pieces[i]!.text;
      to(stream, text);
    }
  };
  const queue = (stream: Stream, text: string) => {
    if (text === '') return;
    if (queued.length === 0) setImmediate(() => flush());
    queued.push({ stream, text });
  };
  return { stdout: (t) => queue('stdout', t), stderr: (t) => queue('stderr', t), flush };
}

/** Written at exit without the event loop; a stream nobody reads any more is left alone. */
const atExit: StreamWriter = (stream, text) => {
  try {
    writeSync(stream === 'stdout' ? 1 : 2, text);
  } catch {
    // a closed pipe or terminal: there is no one to tell
  }
};

/** The process's output: queued per turn, and whatever is left written when the process exits. */
export function processTurnOutput(): TurnOutput {
  const out = createTurnOutput();
  process.once('exit', () => out.flush(atExit));
  return out;
}
