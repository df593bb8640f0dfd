/**
 * The messages of a request as their JSON joined by commas, kept between rounds in segments of about
 * `SEGMENT_BYTES` (docs/performance.md, "Fewer waits in a round"). A round that sends the same
 * messages plus new ones appends only those; a message replaced where it stands (compaction pruning
 * one more old output each round, or cutting a file's content) rebuilds only its own segment; an
 * edit that moves the later messages rebuilds the segments from there. Bytes that went out in a
 * body are never written again, since that body may still be on its way (a big one over a slow
 * link, or another thread forked from the same message objects).
 */
import type { Message } from '../../shared/types/index.ts';

/** Past this many bytes a segment takes no more messages. */
export const SEGMENT_BYTES = 128 * 1024;

/** Messages [start, start + refs.length) of the list, joined in `bytes[0, used)`. */
interface Segment {
  start: number;
  refs: Message[];
  bytes: Buffer;
  used: number;
}

const COMMA = 0x2c;
/** A new segment's room to grow before its first copy. */
const FIRST_CAPACITY = 16 * 1024;

/** By the list's first message, so threads run side by side keep their own. */
const chains = new WeakMap<Message, Segment[]>();

/**
 * `msgs` as JSON joined by commas (without the brackets), in chunks to send one after another;
 * `bytesOf` gives a message's JSON as UTF-8. Contract: the chunks stay unchanged however many
 * lists are joined later.
 */
export function joinedMessages(
  msgs: readonly Message[],
  bytesOf: (m: Message) => Buffer,
): Buffer[] {
  if (msgs.length === 0) return [];
  let segments = chains.get(msgs[0]);
  if (!segments) {
    segments = [];
    chains.set(msgs[0], segments);
  }
  let next = 0;
  let kept = 0;
  for (const seg of segments) {
    if (next >= msgs.length) break;
    const end = Math.min(seg.start + seg.refs.length, msgs.length);
    segments[kept++] =
      end === seg.start + seg.refs.length && sameRefs(seg, msgs)
        ? seg
        : build(msgs, seg.start, end, bytesOf);
    next = end;
  }
  segments.length = kept;
  while (next < msgs.length) {
    const last = segments[segments.length - 1];
    if (last && last.used < SEGMENT_BYTES) append(last, msgs[next], next, bytesOf);
    else segments.push(build(msgs, next, next + 1, bytesOf));
    next++;
  }
  return segments.map((seg) => seg.bytes.subarray(0, seg.used));
}

function sameRefs(seg: Segment, msgs: readonly Message[]): boolean {
  for (let j = 0; j < seg.refs.length; j++) if (seg.refs[j] !== msgs[seg.start + j]) return false;
  return true;
}

/** A new segment of messages [start, end). */
function build(
  msgs: readonly Message[],
  start: number,
  end: number,
  bytesOf: (m: Message) => Buffer,
): Segment {
  let size = 0;
  for (let i = start; i < end; i++) size += (i === 0 ? 0 : 1) + bytesOf(msgs[i]).length;
  const seg: Segment = {
    start,
    refs: [],
    bytes: Buffer.allocUnsafe(Math.max(size, FIRST_CAPACITY)),
    used: 0,
  };
  for (let i = start; i < end; i++) write(seg, msgs[i], i, bytesOf);
  return seg;
}

/** Appends message `index` to `seg`: after its last byte, or in a bigger copy when it is full. */
function append(seg: Segment, m: Message, index: number, bytesOf: (m: Message) => Buffer): void {
  const need = seg.used + 1 + bytesOf(m).length;
  if (need > seg.bytes.length) {
    const bytes = Buffer.allocUnsafe(Math.max(need, seg.bytes.length * 2));
    seg.bytes.copy(bytes, 0, 0, seg.used);
    seg.bytes = bytes;
  }
  write(seg, m, index, bytesOf);
}

/** Writes message `index` (with its leading comma) at the end of `seg`, which has room for it. */
function write(seg: Segment, m: Message, index: number, bytesOf: (m: Message) => Buffer): void {
  if (index > 0) seg.bytes[seg.used++] = COMMA;
  const piece = bytesOf(m);
  piece.copy(seg.bytes, seg.used);
  seg.used += piece.length;
  seg.refs.push(m);
}
