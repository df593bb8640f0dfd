import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ThreadChat } from '../../stores/chat-types.ts';
import { buildRows } from './rows.ts';
import { MessageRow } from './MessageRow.tsx';
import { useRevealCall } from '../trace/use-reveal-call.ts';

/** The virtualized message list; sticks to the bottom while the user is there. */
export function MessageList({ thread }: { thread: ThreadChat }) {
  const rows = useMemo(() => buildRows(thread), [thread]);
  const awaiting = useMemo(() => new Set(thread.approvals.map((a) => a.toolCall.id)), [thread.approvals]);
  const asking = useMemo(() => new Set(thread.elicitations.flatMap((e) => e.tool_call_id ?? [])), [thread.elicitations]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 72,
    overscan: 8,
    getItemKey: (i) => rows[i]!.key,
  });

  useRevealCall(rows, virtualizer);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  useLayoutEffect(() => {
    if (atBottom.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows, virtualizer]);

  useEffect(() => {
    atBottom.current = true;
  }, [thread.threadId]);

  const items = virtualizer.getVirtualItems();
  return (
    <div className="message-scroll" ref={scrollRef} data-testid="message-list" aria-live="polite">
      <div className="message-canvas" style={{ height: virtualizer.getTotalSize() }}>
        <div className="message-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="row">
              <MessageRow row={rows[item.index]!} tools={thread.tools} awaiting={awaiting} asking={asking} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
