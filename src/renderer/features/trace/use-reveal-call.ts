/** Scrolls the message list to the card of the tool call a span asked to reveal. */
import { useEffect } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { Row } from '../chat/rows.ts';
import { rowOfCall, useReveal } from './span-reveal.ts';

/** Contract: does nothing when the call is not in this thread's rows. */
export function useRevealCall(
  rows: readonly Row[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
): void {
  const call = useReveal((s) => s.call);
  useEffect(() => {
    if (!call) return;
    const index = rowOfCall(rows, call.id);
    if (index < 0) return;
    virtualizer.scrollToIndex(index, { align: 'center' });
    // The card is mounted once the virtualizer rendered it: flash it so the eye finds it.
    const t = setTimeout(() => {
      const card = document.querySelector<HTMLElement>(`[data-call-id="${CSS.escape(call.id)}"]`);
      card?.classList.add('revealed');
      card?.focus();
      setTimeout(() => card?.classList.remove('revealed'), 1500);
    }, 60);
    return () => clearTimeout(t);
    // Only a new reveal request scrolls; new rows while the user reads must not yank the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [call]);
}
