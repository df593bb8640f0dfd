/** The result every IPC / socket call returns: data, never a thrown error across the boundary. */

export type IpcErrorCode =
  | 'invalid_args'
  | 'unknown_channel'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'not_implemented'
  | 'unavailable'
  | 'internal';

export interface IpcError {
  code: IpcErrorCode;
  message: string;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** Wraps a value as a successful result. */
export function ok<T>(value: T): IpcResult<T> {
  return { ok: true, value };
}

/** Builds a failed result. */
export function fail<T = never>(code: IpcErrorCode, message: string): IpcResult<T> {
  return { ok: false, error: { code, message } };
}
