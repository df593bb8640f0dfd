/** The keys an approval card answers to. */

/** The decision a key press stands for. */
export type KeyDecision = 'allow_once' | 'allow_thread' | 'deny';

/** Contract: y allows once, a allows for the thread, n and Escape deny; any other key is not an answer. */
export function approvalForKey(key: string): KeyDecision | null {
  switch (key) {
    case 'y':
    case 'Y':
      return 'allow_once';
    case 'a':
    case 'A':
      return 'allow_thread';
    case 'n':
    case 'N':
    case 'Escape':
      return 'deny';
    default:
      return null;
  }
}
