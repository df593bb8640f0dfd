/** The one question asked before unsaved edits are thrown away. */

/** Contract: true when there is nothing to lose or the user agrees to lose it. */
export function confirmDiscard(dirty: boolean, what: string): boolean {
  return !dirty || window.confirm(`Discard your unsaved changes to ${what}?`);
}
