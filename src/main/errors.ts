/**
 * The one error class for expected failures the user can act on. Every face maps it the same way:
 * IPC and the serve socket answer `{ ok: false, error: { code, message } }`, the CLI exits 2.
 * Anything else thrown is a bug and surfaces as `internal`.
 */
import type { IpcErrorCode } from '../shared/ipc/result.ts';

export { errorMessage } from '../shared/error-message.ts';

/** The codes a WorkbenchError carries (every IPC error code but the transport's `unknown_channel`). */
export type WorkbenchErrorCode = Exclude<IpcErrorCode, 'unknown_channel'>;

/** An expected failure with a code the faces show as a plain message (bad input, missing thing, conflict…). */
export class WorkbenchError extends Error {
  readonly code: WorkbenchErrorCode;
  constructor(code: WorkbenchErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WorkbenchError';
    this.code = code;
  }
}
