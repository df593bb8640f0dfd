import type { ElicitField } from '../../../shared/types/index.ts';
import { toggleChoice, type FormInput } from './elicitation-form.ts';

const INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

interface FieldProps {
  field: ElicitField;
  input: FormInput | undefined;
  /** The id of the field's (first) input; its help and problem hang off it. */
  id: string;
  problem: string | undefined;
  onChange(input: FormInput): void;
}

/** One field of an MCP server's form: its input, labelled with the field's title, its help and its problem. */
export function ElicitationField({ field, input, id, problem, onChange }: FieldProps) {
  const helpId = `${id}-help`;
  const problemId = `${id}-problem`;
  const describedBy =
    [field.description && helpId, problem && problemId].filter(Boolean).join(' ') || undefined;
  const a11y = {
    'aria-describedby': describedBy,
    'aria-invalid': problem ? true : undefined,
  };
  const label = (
    <>
      {field.title}
      {field.required && (
        <span className="elicitation-required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  const help = field.description && (
    <div id={helpId} className="elicitation-help">
      {field.description}
    </div>
  );
  const shownProblem = problem && (
    <div
      id={problemId}
      className="elicitation-problem"
      data-testid={`elicitation-problem-${field.name}`}
    >
      {problem}
    </div>
  );
  const testId = `elicitation-field-${field.name}`;

  if (field.kind === 'choices') {
    const checked = Array.isArray(input) ? input : [];
    return (
      <fieldset className="elicitation-field" aria-describedby={describedBy} data-testid={testId}>
        <legend>{label}</legend>
        {help}
        {field.options.map((o, i) => (
          <label key={o.value} className="elicitation-option">
            <input
              type="checkbox"
              id={i === 0 ? id : undefined}
              checked={checked.includes(o.value)}
              onChange={(e) => onChange(toggleChoice(field, checked, o.value, e.target.checked))}
            />
            {o.label}
          </label>
        ))}
        {shownProblem}
      </fieldset>
    );
  }
  if (field.kind === 'boolean') {
    return (
      <div className="elicitation-field elicitation-check">
        <input
          type="checkbox"
          id={id}
          checked={input === true}
          onChange={(e) => onChange(e.target.checked)}
          data-testid={testId}
          {...a11y}
        />
        <label htmlFor={id}>{label}</label>
        {help}
        {shownProblem}
      </div>
    );
  }
  const text = typeof input === 'string' ? input : '';
  return (
    <div className="elicitation-field">
      <label htmlFor={id}>{label}</label>
      {field.kind === 'choice' ? (
        <select
          id={id}
          value={text}
          required={field.required}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
          {...a11y}
        >
          {(!field.required || text === '') && <option value="">Choose…</option>}
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={
            field.kind === 'number' ? 'number' : field.format ? INPUT_TYPE[field.format] : 'text'
          }
          step={field.kind === 'number' ? (field.integer ? 1 : 'any') : undefined}
          min={field.kind === 'number' ? field.minimum : undefined}
          max={field.kind === 'number' ? field.maximum : undefined}
          value={text}
          required={field.required}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
          {...a11y}
        />
      )}
      {help}
      {shownProblem}
    </div>
  );
}
