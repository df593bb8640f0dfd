/**
 * An MCP elicitation form (docs/tools.md#when-a-server-asks-you): the server's `requestedSchema`
 * (a flat object of strings, numbers, booleans and choices) read into fields, and an answer checked
 * against them. Shared by the workbench, which checks every answer before a server sees it, and
 * the app, which draws the form and says what is missing before sending.
 */
import type { ElicitField, ElicitOption, ElicitValue } from './types/elicitation.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * What a form may hold: MCP meant short forms, and a server is not trusted — ten thousand fields or
 * choices would freeze the card, and the labels are capped like the server's message.
 */
export const FORM_LIMITS = { fields: 50, options: 500, label: 200, help: 1000 } as const;
const label = (v: unknown) => str(v)?.slice(0, FORM_LIMITS.label);

/** `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{const, title}`; undefined when neither. */
function optionsOf(s: Json): ElicitOption[] | undefined {
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return (s.enum as string[]).map((value, i) => ({ value, label: label(names[i]) ?? value }));
  }
  const list = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (!list?.every((o) => isObject(o) && typeof o.const === 'string')) return undefined;
  return (list as Json[]).map((o) => ({
    value: o.const as string,
    label: label(o.title) ?? (o.const as string),
  }));
}

function fieldOf(name: string, s: unknown, required: boolean): ElicitField | string {
  if (!isObject(s)) return `field "${name}" has no schema`;
  const base = {
    name,
    title: label(s.title) ?? name,
    required,
    ...(str(s.description)
      ? { description: (s.description as string).slice(0, FORM_LIMITS.help) }
      : {}),
  };
  switch (s.type) {
    case 'string': {
      const options = optionsOf(s);
      if (options)
        return {
          ...base,
          kind: 'choice',
          options,
          ...(str(s.default) ? { default: s.default as string } : {}),
        };
      const format = str(s.format);
      return {
        ...base,
        kind: 'string',
        ...(format && FORMATS.has(format) ? { format: format as 'email' } : {}),
        ...(num(s.minLength) !== undefined ? { minLength: s.minLength as number } : {}),
        ...(num(s.maxLength) !== undefined ? { maxLength: s.maxLength as number } : {}),
        ...(str(s.default) !== undefined ? { default: s.default as string } : {}),
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: s.type === 'integer',
        ...(num(s.minimum) !== undefined ? { minimum: s.minimum as number } : {}),
        ...(num(s.maximum) !== undefined ? { maximum: s.maximum as number } : {}),
        ...(num(s.default) !== undefined ? { default: s.default as number } : {}),
      };
    case 'boolean':
      return {
        ...base,
        kind: 'boolean',
        ...(typeof s.default === 'boolean' ? { default: s.default } : {}),
      };
    case 'array': {
      const options = isObject(s.items) ? optionsOf(s.items) : undefined;
      if (!options) return `field "${name}" is a list of something other than choices`;
      const defaults =
        Array.isArray(s.default) && s.default.every((v) => typeof v === 'string')
          ? { default: s.default as string[] }
          : {};
      return {
        ...base,
        kind: 'choices',
        options,
        ...(num(s.minItems) !== undefined ? { minItems: s.minItems as number } : {}),
        ...(num(s.maxItems) !== undefined ? { maxItems: s.maxItems as number } : {}),
        ...defaults,
      };
    }
    default:
      return `field "${name}" has type ${JSON.stringify(s.type)}, which a form cannot ask for`;
  }
}

/** The form's fields, in the schema's order; a string says why the schema cannot be a form. */
export function elicitFields(schema: unknown): ElicitField[] | string {
  if (!isObject(schema) || !isObject(schema.properties)) return 'the form has no properties';
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  const properties = Object.entries(schema.properties);
  if (properties.length > FORM_LIMITS.fields)
    return `the form has ${properties.length} fields; at most ${FORM_LIMITS.fields} are asked`;
  const fields: ElicitField[] = [];
  for (const [name, s] of properties) {
    const field = fieldOf(name, s, required.has(name));
    if (typeof field === 'string') return field;
    if ('options' in field && field.options.length > FORM_LIMITS.options)
      return `field "${name}" has ${field.options.length} choices; at most ${FORM_LIMITS.options} are offered`;
    fields.push(field);
  }
  return fields;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A scheme, a colon and no blank: what a URI needs (this module runs where `URL` may not exist). */
const URI = /^[a-z][a-z0-9+.-]*:\S+$/i;

function formatProblem(format: string, v: string): string | undefined {
  if (format === 'email' && !EMAIL.test(v)) return 'is not an email address';
  if (format === 'uri' && !URI.test(v)) return 'is not a URL';
  if (format === 'date' && !(DATE.test(v) && !Number.isNaN(Date.parse(v))))
    return 'is not a date (YYYY-MM-DD)';
  if (format === 'date-time' && Number.isNaN(Date.parse(v))) return 'is not a date and time';
  return undefined;
}

/** Why `v` does not fit the field, or undefined when it does. */
export function fieldProblem(f: ElicitField, v: ElicitValue): string | undefined {
  switch (f.kind) {
    case 'string':
      if (typeof v !== 'string') return 'must be text';
      if (f.minLength !== undefined && [...v].length < f.minLength)
        return `must be at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && [...v].length > f.maxLength)
        return `must be at most ${f.maxLength} characters`;
      return f.format && v !== '' ? formatProblem(f.format, v) : undefined;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
      if (f.integer && !Number.isInteger(v)) return 'must be a whole number';
      if (f.minimum !== undefined && v < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== undefined && v > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be yes or no';
    case 'choice':
      return typeof v === 'string' && f.options.some((o) => o.value === v)
        ? undefined
        : 'must be one of the choices';
    case 'choices': {
      if (!Array.isArray(v) || !v.every((x) => f.options.some((o) => o.value === x)))
        return 'must be some of the choices';
      if (f.minItems !== undefined && v.length < f.minItems)
        return `needs at least ${f.minItems} choices`;
      if (f.maxItems !== undefined && v.length > f.maxItems)
        return `allows at most ${f.maxItems} choices`;
      return undefined;
    }
  }
}

/**
 * Why `content` is not a valid answer to the form (a required field missing, a value that does not
 * fit, a field the form does not have), or undefined when it is.
 */
export function contentProblem(
  fields: readonly ElicitField[],
  content: Readonly<Record<string, unknown>>,
): string | undefined {
  for (const name of Object.keys(content)) {
    if (!fields.some((f) => f.name === name)) return `the form has no field "${name}"`;
  }
  for (const f of fields) {
    const v = content[f.name];
    if (v === undefined) {
      if (f.required) return `${f.title} is required`;
      continue;
    }
    const problem = fieldProblem(f, v as ElicitValue);
    if (problem) return `${f.title} ${problem}`;
  }
  return undefined;
}
