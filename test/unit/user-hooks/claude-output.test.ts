/** Reading a Claude Code handler's JSON answer: the event-specific fields of PostToolUse and PermissionDenied. */
import { describe, expect, it } from 'vitest';
import { readClaudeResult } from '../../../src/main/user-hooks/claude-output.ts';
import { hookProcessResult } from '../../../src/main/user-hooks/runner.ts';

const answer = (event: string, hookSpecificOutput: object) =>
  readClaudeResult(
    event,
    hookProcessResult(performance.now(), {
      exitCode: 0,
      stdout: JSON.stringify({
        hookSpecificOutput: { hookEventName: event, ...hookSpecificOutput },
      }),
    }),
  );

describe('Claude Code handler answers', () => {
  it('updatedMCPToolOutput as text, as content blocks or as a result with content', () => {
    expect(
      answer('PostToolUse', { updatedMCPToolOutput: 'withheld' }).verdict.updatedMCPToolOutput,
    ).toBe('withheld');
    const blocks = [
      { type: 'text', text: 'first' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ];
    expect(
      answer('PostToolUse', { updatedMCPToolOutput: blocks }).verdict.updatedMCPToolOutput,
    ).toBe('first\n[image: image/png, 3 bytes]');
    const { verdict, reading } = answer('PostToolUse', {
      updatedMCPToolOutput: { content: [{ type: 'text', text: 'x' }] },
    });
    expect(verdict.updatedMCPToolOutput).toBe('x');
    expect(reading.decision).toBe('replace_output');
  });

  it('an updatedMCPToolOutput of another shape is a hook error, never a partial output', () => {
    for (const bad of [42, [null], [{ text: 'no type' }], { content: 'x' }]) {
      const { verdict, reading } = answer('PostToolUse', { updatedMCPToolOutput: bad });
      expect(verdict.updatedMCPToolOutput).toBeUndefined();
      expect(verdict.failed).toMatch(/"updatedMCPToolOutput" must be text, content blocks/);
      expect(reading.decision).toBe('error');
    }
  });

  it('PermissionDenied retry must be a boolean; false says nothing', () => {
    expect(answer('PermissionDenied', { retry: true }).verdict.retry).toBe(true);
    expect(answer('PermissionDenied', { retry: false }).verdict).not.toHaveProperty('retry');
    expect(answer('PermissionDenied', { retry: 'yes' }).verdict.failed).toMatch(
      /"retry" must be a boolean/,
    );
    // Another event's retry is not read.
    expect(answer('PostToolUse', { retry: true }).verdict).not.toHaveProperty('retry');
  });
});
