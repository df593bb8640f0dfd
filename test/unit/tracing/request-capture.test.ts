import { describe, expect, it } from 'vitest';
import { requestAttributes } from '../../../src/main/tracing/request-capture.ts';
import { registerSecret } from '../../../src/main/secrets/redaction.ts';
import type { ModelRequest } from '../../../src/main/llm/types.ts';

const request = (messages: ModelRequest['messages'], system = ['You are helpful.']) =>
  ({ model: 'm', system, messages, tools: [], params: {} }) as unknown as ModelRequest;

describe('requestAttributes', () => {
  it('keeps the system prompt and the messages in order, with tool call names', () => {
    const a = requestAttributes(
      request([
        { role: 'user', content: 'read a.txt' },
        { role: 'assistant', content: '', tool_calls: [{ id: '1', name: 'read_file', args: {} }] },
      ]),
    );
    expect(a['gen_ai.system_instructions']).toBe('You are helpful.');
    expect(JSON.parse(String(a['gen_ai.input.messages']))).toEqual([
      { role: 'user', content: 'read a.txt' },
      { role: 'assistant', content: '', tool_calls: ['read_file'] },
    ]);
    expect(a['workbench.input.messages_omitted']).toBe(0);
  });

  it('keeps the newest messages of a long thread and counts the rest', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({
      role: 'user' as const,
      content: `message ${i} `.repeat(20),
    }));
    const a = requestAttributes(request(many));
    const kept = JSON.parse(String(a['gen_ai.input.messages'])) as Array<{ content: string }>;
    expect(kept.at(-1)!.content).toContain('message 1999');
    expect(kept.length + Number(a['workbench.input.messages_omitted'])).toBe(2000);
    expect(String(a['gen_ai.input.messages']).length).toBeLessThanOrEqual(4096);
  });

  it('redacts registered secrets from the prompt', () => {
    registerSecret('sk-test-capture-0123456789');
    const a = requestAttributes(
      request(
        [{ role: 'user', content: 'my key is sk-test-capture-0123456789' }],
        ['key sk-test-capture-0123456789'],
      ),
    );
    expect(String(a['gen_ai.input.messages'])).not.toContain('sk-test-capture-0123456789');
    expect(String(a['gen_ai.system_instructions'])).not.toContain('sk-test-capture-0123456789');
  });

  it('redacts a secret registered after the same messages were captured', () => {
    const messages: ModelRequest['messages'] = [{ role: 'user', content: 'token tok-later-987654321' }];
    const system = ['system tok-later-987654321'];
    const before = requestAttributes(request(messages, system));
    expect(String(before['gen_ai.input.messages'])).toContain('tok-later-987654321');
    registerSecret('tok-later-987654321');
    const after = requestAttributes(request(messages, system));
    expect(String(after['gen_ai.input.messages'])).not.toContain('tok-later-987654321');
    expect(String(after['gen_ai.system_instructions'])).not.toContain('tok-later-987654321');
  });
});
