/** The elicitation card's form state: defaults, the content it sends, the problems it shows. */
import { describe, expect, it } from 'vitest';
import {
  answerOf,
  initialInputs,
  problemsOf,
  toggleChoice,
} from '../../../src/renderer/features/chat/elicitation-form.ts';
import type { ElicitField } from '../../../src/shared/types/index.ts';

const signup: ElicitField[] = [
  { kind: 'string', name: 'name', title: 'Your name', required: true, minLength: 2 },
  { kind: 'string', name: 'email', title: 'Email', required: false, format: 'email' },
  {
    kind: 'number',
    name: 'age',
    title: 'Age',
    required: false,
    integer: true,
    minimum: 0,
    maximum: 150,
  },
  {
    kind: 'choice',
    name: 'plan',
    title: 'Plan',
    required: true,
    options: [
      { value: 'free', label: 'Free' },
      { value: 'pro', label: 'Pro' },
    ],
  },
  { kind: 'boolean', name: 'newsletter', title: 'Newsletter', required: false, default: false },
];
const topics: Extract<ElicitField, { kind: 'choices' }> = {
  kind: 'choices',
  name: 'topics',
  title: 'Topics',
  required: false,
  options: [
    { value: 'a', label: 'A' },
    { value: 'b', label: 'B' },
    { value: 'c', label: 'C' },
  ],
  maxItems: 2,
};

describe('elicitation form', () => {
  it('starts from the defaults, else empty', () => {
    expect(initialInputs(signup)).toEqual({
      name: '',
      email: '',
      age: '',
      plan: '',
      newsletter: false,
    });
    expect(
      initialInputs([
        { kind: 'number', name: 'n', title: 'N', required: false, integer: false, default: 2.5 },
        { ...topics, default: ['b'] },
        { kind: 'choice', name: 'c', title: 'C', required: false, options: [], default: 'x' },
      ]),
    ).toEqual({ n: '2.5', topics: ['b'], c: 'x' });
  });

  it('sends numbers as numbers and booleans as booleans, and leaves out empty optional fields', () => {
    const inputs = { ...initialInputs(signup), name: 'Ada', age: '36', plan: 'pro' };
    expect(answerOf(signup, inputs)).toEqual({
      content: { name: 'Ada', age: 36, plan: 'pro', newsletter: false },
    });
    expect(answerOf([topics], { topics: [] })).toEqual({ content: {} });
    expect(answerOf([{ ...topics, required: true }], { topics: [] })).toEqual({
      content: { topics: [] },
    });
  });

  it("names each field's problem and refuses to send until they are fixed", () => {
    const inputs = { ...initialInputs(signup), name: 'A', email: 'ada', age: '3.5' };
    expect(problemsOf(signup, inputs)).toEqual({
      name: 'Your name must be at least 2 characters',
      email: 'Email is not an email address',
      age: 'Age must be a whole number',
      plan: 'Plan is required',
    });
    expect(answerOf(signup, inputs)).toEqual({
      field: 'name',
      problem: 'Your name must be at least 2 characters',
    });
    expect(problemsOf([topics], { topics: ['a', 'b', 'c'] })).toEqual({
      topics: 'Topics allows at most 2 choices',
    });
  });

  it("keeps picked options in the form's order", () => {
    expect(toggleChoice(topics, ['c'], 'a', true)).toEqual(['a', 'c']);
    expect(toggleChoice(topics, ['a', 'c'], 'a', false)).toEqual(['c']);
  });

  it('shows a date-time default in local time and sends the same instant back', () => {
    const when: ElicitField = {
      kind: 'string',
      name: 'when',
      title: 'When',
      required: true,
      format: 'date-time',
      default: '2024-05-01T10:30:00.000Z',
    };
    const inputs = initialInputs([when]);
    expect(inputs.when).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(answerOf([when], inputs)).toEqual({ content: { when: '2024-05-01T10:30:00.000Z' } });
  });
});
