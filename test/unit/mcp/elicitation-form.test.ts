/** An MCP elicitation's form (docs/tools.md#when-a-server-asks-you): the schema read into fields, answers checked, pages that are not web pages refused. */
import { describe, expect, it } from 'vitest';
import { contentProblem, elicitFields } from '../../../src/shared/elicitation.ts';
import { elicitationAsk } from '../../../src/main/mcp/elicitation-ask.ts';
import type { ElicitField } from '../../../src/shared/types/index.ts';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email', description: 'Where we write' },
    born: { type: 'string', format: 'date' },
    seats: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
    ratio: { type: 'number' },
    ok: { type: 'boolean', default: true },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: {
      type: 'array',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      minItems: 1,
      maxItems: 2,
    },
  },
  required: ['name', 'size'],
};

describe('an elicitation form', () => {
  it('reads every kind of field MCP allows, with its title, help, limits, defaults and choices', () => {
    const fields = elicitFields(schema) as ElicitField[];
    expect(fields.map((f) => [f.name, f.kind, f.title, f.required])).toEqual([
      ['name', 'string', 'Name', true],
      ['email', 'string', 'email', false],
      ['born', 'string', 'born', false],
      ['seats', 'number', 'seats', false],
      ['ratio', 'number', 'ratio', false],
      ['ok', 'boolean', 'ok', false],
      ['size', 'choice', 'size', true],
      ['tags', 'choices', 'tags', false],
    ]);
    expect(fields[1]).toMatchObject({ format: 'email', description: 'Where we write' });
    expect(fields[3]).toMatchObject({ integer: true, minimum: 1, maximum: 9, default: 2 });
    expect(fields[6]).toMatchObject({
      options: [
        { value: 's', label: 'Small' },
        { value: 'l', label: 'Large' },
      ],
    });
    expect(
      elicitFields({
        type: 'object',
        properties: { plan: { type: 'string', enum: ['f', 'p'], enumNames: ['Free', 'Pro'] } },
      }),
    ).toEqual([
      {
        name: 'plan',
        title: 'plan',
        required: false,
        kind: 'choice',
        options: [
          { value: 'f', label: 'Free' },
          { value: 'p', label: 'Pro' },
        ],
      },
    ]);
  });

  it("keeps a hostile server's form small: too many fields or choices are refused, long labels cut", () => {
    const many = (n: number, of: (i: number) => object) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, of(i)]));
    expect(
      elicitFields({ type: 'object', properties: many(10_000, () => ({ type: 'string' })) }),
    ).toBe('the form has 10000 fields; at most 50 are asked');
    expect(
      elicitFields({ type: 'object', properties: many(50, () => ({ type: 'boolean' })) }),
    ).toHaveLength(50);
    const options = Array.from({ length: 501 }, (_, i) => `o${i}`);
    expect(
      elicitFields({ type: 'object', properties: { pick: { type: 'string', enum: options } } }),
    ).toBe('field "pick" has 501 choices; at most 500 are offered');
    const [field] = elicitFields({
      type: 'object',
      properties: { x: { type: 'string', title: 'T'.repeat(5000), description: 'D'.repeat(5000) } },
    }) as ElicitField[];
    expect([field!.title.length, field!.description!.length]).toEqual([200, 1000]);
  });

  it('says why a schema cannot be a form', () => {
    expect(elicitFields({ type: 'object', properties: { nested: { type: 'object' } } })).toBe(
      'field "nested" has type "object", which a form cannot ask for',
    );
    expect(
      elicitFields({
        type: 'object',
        properties: { list: { type: 'array', items: { type: 'number' } } },
      }),
    ).toBe('field "list" is a list of something other than choices');
    expect(elicitFields({ type: 'object' })).toBe('the form has no properties');
  });

  it('checks an answer: required fields, types, limits, formats, choices and fields the form does not have', () => {
    const fields = elicitFields(schema) as ElicitField[];
    const ok = { name: 'Ada', size: 's' };
    expect(contentProblem(fields, ok)).toBeUndefined();
    expect(
      contentProblem(fields, {
        ...ok,
        email: 'ada@example.org',
        born: '1815-12-10',
        seats: 9,
        ratio: 0.5,
        ok: false,
        tags: ['a', 'c'],
      }),
    ).toBeUndefined();
    const problems = [
      [{ size: 's' }, 'Name is required'],
      [{ ...ok, name: 'A' }, 'Name must be at least 2 characters'],
      [{ ...ok, name: 'Adelaide' }, 'Name must be at most 5 characters'],
      [{ ...ok, name: 7 }, 'Name must be text'],
      [{ ...ok, email: 'ada' }, 'email is not an email address'],
      [{ ...ok, born: '10/12/1815' }, 'born is not a date (YYYY-MM-DD)'],
      [{ ...ok, seats: 2.5 }, 'seats must be a whole number'],
      [{ ...ok, seats: 10 }, 'seats must be at most 9'],
      [{ ...ok, ratio: '1' }, 'ratio must be a number'],
      [{ ...ok, ok: 'yes' }, 'ok must be yes or no'],
      [{ ...ok, size: 'm' }, 'size must be one of the choices'],
      [{ ...ok, tags: [] }, 'tags needs at least 1 choices'],
      [{ ...ok, tags: ['a', 'b', 'c'] }, 'tags allows at most 2 choices'],
      [{ ...ok, tags: ['z'] }, 'tags must be some of the choices'],
      [{ ...ok, password: 'x' }, 'the form has no field "password"'],
    ] as const;
    for (const [content, problem] of problems)
      expect(contentProblem(fields, content)).toBe(problem);
  });
});

describe('a request as the workbench asks it', () => {
  it('asks a form with its fields, and marks one it cannot show', () => {
    const form = elicitationAsk({
      message: 'Who?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    expect(form).toMatchObject({
      mode: 'form',
      message: 'Who?',
      fields: [{ name: 'name', kind: 'string' }],
    });
    expect(form.unusable).toBeUndefined();
  });

  it('opens only web pages: a file or script address is declined with the reason', () => {
    expect(
      elicitationAsk({
        mode: 'url',
        message: 'Sign in',
        url: 'https://a.example/x',
        elicitationId: 'e1',
      }),
    ).toEqual({
      mode: 'url',
      message: 'Sign in',
      url: 'https://a.example/x',
      elicitationId: 'e1',
    });
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url'])
      expect(
        elicitationAsk({ mode: 'url', message: 'x', url, elicitationId: 'e2' }).unusable,
      ).toMatch(/is not a web address$/);
  });
});
