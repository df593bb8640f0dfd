/**
 * An MCP server's form as the chat's card edits it (docs/tools.md#when-a-server-asks-you): what each
 * input holds, prefilled with the server's defaults, and the `content` it answers with — an empty
 * field that is not required left out, numbers as numbers, booleans as booleans, picked options as
 * a list of their values.
 */
import { contentProblem, fieldProblem } from '../../../shared/elicitation.ts';
import type { ElicitField, ElicitValue } from '../../../shared/types/index.ts';

/** What one input holds: its text (string, number, choice), a checkbox, or the checked options. */
export type FormInput = string | boolean | string[];

/** The inputs of a form, by field name. */
export type FormInputs = Readonly<Record<string, FormInput>>;

/** The answer a form makes, or why it cannot be sent yet. */
export type FormAnswer =
  | { content: Record<string, ElicitValue> }
  /** `field`: the first field whose input does not fit; `problem` alone: the form as a whole. */
  | { field?: string; problem: string };

const pad = (n: number) => String(n).padStart(2, '0');

/** A date-time as a `datetime-local` input shows it (local time, to the minute). */
function localDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${day}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form's inputs before the user touches them: each field's default, else empty. */
export function initialInputs(fields: readonly ElicitField[]): FormInputs {
  const inputs: Record<string, FormInput> = {};
  for (const f of fields) {
    switch (f.kind) {
      case 'string':
        inputs[f.name] =
          f.format === 'date-time' && f.default ? localDateTime(f.default) : (f.default ?? '');
        break;
      case 'number':
        inputs[f.name] = f.default === undefined ? '' : String(f.default);
        break;
      case 'boolean':
        inputs[f.name] = f.default ?? false;
        break;
      case 'choice':
        inputs[f.name] = f.default ?? '';
        break;
      case 'choices':
        inputs[f.name] = f.default ?? [];
        break;
    }
  }
  return inputs;
}

/** The value a field answers with, or undefined when it is left empty. */
function valueOf(f: ElicitField, input: FormInput | undefined): ElicitValue | undefined {
  switch (f.kind) {
    case 'string': {
      if (typeof input !== 'string' || input === '') return undefined;
      // A datetime-local input has no zone: sent as the instant it means, as RFC 3339 asks.
      const at = f.format === 'date-time' ? new Date(input) : undefined;
      return at && !Number.isNaN(at.getTime()) ? at.toISOString() : input;
    }
    case 'number':
      return typeof input === 'string' && input.trim() !== '' ? Number(input) : undefined;
    case 'boolean':
      return input === true;
    case 'choice':
      return typeof input === 'string' && input !== '' ? input : undefined;
    case 'choices':
      return Array.isArray(input) && (input.length > 0 || f.required) ? input : undefined;
  }
}

/** Why each field's input does not fit it, by field name ("Your name must be at least 2 characters"). */
export function problemsOf(
  fields: readonly ElicitField[],
  inputs: FormInputs,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const f of fields) {
    const v = valueOf(f, inputs[f.name]);
    const problem = v === undefined ? (f.required ? 'is required' : undefined) : fieldProblem(f, v);
    if (problem) problems[f.name] = `${f.title} ${problem}`;
  }
  return problems;
}

/** The form's `content` when every input fits, else the first problem. */
export function answerOf(fields: readonly ElicitField[], inputs: FormInputs): FormAnswer {
  const problems = problemsOf(fields, inputs);
  const first = fields.find((f) => problems[f.name]);
  if (first) return { field: first.name, problem: problems[first.name]! };
  const content: Record<string, ElicitValue> = {};
  for (const f of fields) {
    const v = valueOf(f, inputs[f.name]);
    if (v !== undefined) content[f.name] = v;
  }
  const problem = contentProblem(fields, content);
  return problem ? { problem } : { content };
}

/** The options of a `choices` field checked after `value` is checked or unchecked, in the form's order. */
export function toggleChoice(
  f: Extract<ElicitField, { kind: 'choices' }>,
  checked: readonly string[],
  value: string,
  on: boolean,
): string[] {
  return f.options.map((o) => o.value).filter((v) => (v === value ? on : checked.includes(v)));
}
