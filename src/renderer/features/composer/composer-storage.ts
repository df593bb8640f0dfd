/**
 * What the composer keeps across reloads in localStorage, per thread: the draft being typed and a
 * send that failed (its text and why), so nothing has to be typed again.
 */
import type { FailedSend } from '../../stores/chat-types.ts';

const DRAFT = 'wb.draft.';
const FAILED = 'wb.failed.';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null || value === '') localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage full or disabled: the draft just is not kept across a reload.
  }
}

/** The key of a thread's storage; '' is the composer of a thread not created yet. */
const slot = (threadId: string) => threadId || 'new';

export const loadDraft = (threadId: string): string => read(DRAFT + slot(threadId)) ?? '';
export const saveDraft = (threadId: string, text: string): void =>
  write(DRAFT + slot(threadId), text);

/** The failed send kept for a thread, if any. */
export function loadFailure(threadId: string): FailedSend | undefined {
  const raw = read(FAILED + slot(threadId));
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as FailedSend;
    return typeof v.text === 'string' && typeof v.error === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

export const saveFailure = (threadId: string, failure: FailedSend | undefined): void =>
  write(FAILED + slot(threadId), failure ? JSON.stringify(failure) : null);
