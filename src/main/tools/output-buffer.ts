/** Head + tail capture of a child's output: keeps draining (so the child never blocks) in flat memory. */

/** Keeps the first `headBytes` and the last `tailBytes` of everything written; counts what was dropped. */
export class HeadTailBuffer {
  private readonly headBytes: number;
  private readonly tailBytes: number;
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private dropped = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.headBytes = headBytes;
    this.tailBytes = tailBytes;
  }

  write(chunk: Buffer): void {
    let rest = chunk;
    if (this.headLen < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLen, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLen += rest.length;
    while (this.tailLen - this.tail[0]!.length >= this.tailBytes) {
      const first = this.tail.shift()!;
      this.tailLen -= first.length;
      this.dropped += first.length;
    }
    if (this.tailLen > this.tailBytes * 2) this.compactTail();
  }

  /** Bytes not kept. */
  get droppedBytes(): number {
    return this.dropped + Math.max(0, this.tailLen - this.tailBytes);
  }

  /** The kept output as text, with a marker where bytes were dropped. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tailBuf = Buffer.concat(this.tail);
    const excess = Math.max(0, tailBuf.length - this.tailBytes);
    const tail = tailBuf.subarray(excess).toString('utf8');
    const dropped = this.droppedBytes;
    return dropped > 0 ? `${head}\n\n... (${dropped} bytes of output dropped) ...\n\n${tail}` : head + tail;
  }

  private compactTail(): void {
    const all = Buffer.concat(this.tail);
    const cut = all.length - this.tailBytes;
    this.dropped += cut;
    this.tail = [Buffer.from(all.subarray(cut))];
    this.tailLen = this.tailBytes;
  }
}
