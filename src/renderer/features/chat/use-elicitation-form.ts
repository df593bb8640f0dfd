import { useMemo, useState } from 'react';
import type { ElicitField } from '../../../shared/types/index.ts';
import {
  answerOf,
  initialInputs,
  problemsOf,
  type FormAnswer,
  type FormInput,
} from './elicitation-form.ts';

/** What the card needs of an elicitation form's state. */
export interface ElicitationForm {
  inputs: Readonly<Record<string, FormInput>>;
  /** Sets a field's input; its problem shows from then on. */
  change(name: string, input: FormInput): void;
  /** The problem shown beside a field: once it was changed or a send was tried. */
  problemShown(name: string): string | undefined;
  /** Tries to send: the answer, with every field's problem shown from now on. */
  submit(): FormAnswer;
}

/**
 * The state of one elicitation form. A problem shows once its field was changed or a send was
 * tried, not while a required field still waits to be filled in for the first time. Not on leaving
 * a field: a problem appearing then would move the buttons under a click on its way to them.
 */
export function useElicitationForm(fields: readonly ElicitField[]): ElicitationForm {
  const [inputs, setInputs] = useState(() => initialInputs(fields));
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [tried, setTried] = useState(false);
  const problems = useMemo(() => problemsOf(fields, inputs), [fields, inputs]);
  return {
    inputs,
    change(name, input) {
      setInputs((prev) => ({ ...prev, [name]: input }));
      setTouched((prev) => (prev.has(name) ? prev : new Set(prev).add(name)));
    },
    problemShown: (name) => (tried || touched.has(name) ? problems[name] : undefined),
    submit() {
      setTried(true);
      return answerOf(fields, inputs);
    },
  };
}
