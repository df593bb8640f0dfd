/**
 * The message of anything thrown: `err.message` for an Error, else its string form. Pure, so the
 * main process and the renderer share one implementation.
 */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
