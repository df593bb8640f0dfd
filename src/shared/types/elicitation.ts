/**
 * An MCP server asking the user for input while one of its tools runs (MCP elicitation;
 * docs/tools.md#when-a-server-asks-you): the form as the app shows it, and the answer.
 */

/** What every field of an elicitation form has. */
interface FieldBase {
  /** The property name the server reads. */
  name: string;
  /** The label: the schema's `title`, else the name. */
  title: string;
  description?: string;
  required: boolean;
}

/** One field of an elicitation form, from a property of the server's `requestedSchema`. */
export type ElicitField =
  | (FieldBase & {
      kind: 'string';
      format?: 'email' | 'uri' | 'date' | 'date-time';
      minLength?: number;
      maxLength?: number;
      default?: string;
    })
  | (FieldBase & {
      kind: 'number';
      integer: boolean;
      minimum?: number;
      maximum?: number;
      default?: number;
    })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  /** Pick one of `options`. */
  | (FieldBase & { kind: 'choice'; options: ElicitOption[]; default?: string })
  /** Pick any of `options`. */
  | (FieldBase & {
      kind: 'choices';
      options: ElicitOption[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    });

export interface ElicitOption {
  value: string;
  label: string;
}

/** accept: the user answered (with `content` for a form); decline: said no; cancel: dismissed it. */
export type ElicitAction = 'accept' | 'decline' | 'cancel';

export type ElicitValue = string | number | boolean | string[];

export interface ElicitAnswer {
  action: ElicitAction;
  /** The form's values, by field name; only with `accept` of a form. */
  content?: Record<string, ElicitValue>;
}
