/** Argument parsing shared by the commands: node:util parseArgs with errors turned into UsageError. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../errors.ts';
import { UsageError } from './types.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(errorMessage(err).replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

/** `--meta key=value` flags as one record. Contract: a flag without `=` or with an empty key is a UsageError. */
export function metaPairs(values: string[] | undefined, flag = '--meta'): Record<string, string> | undefined {
  if (!values?.length) return undefined;
  const out: Record<string, string> = {};
  for (const pair of values) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new UsageError(`${flag} needs key=value, got "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} needs a whole number ≥ 1, got "${value}"`);
  return n;
}
