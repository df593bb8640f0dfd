import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../../src/renderer/features/sidebar/relative-time.ts';
import { headlineOf } from '../../../src/renderer/features/chat/ToolCard.tsx';

describe('small renderer helpers', () => {
  it('formats relative times', () => {
    const now = 1_000_000_000_000;
    expect(relativeTime(now - 10_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 2 * 86_400_000, now)).toBe('2 d ago');
  });

  it('picks the headline argument of a tool call', () => {
    expect(headlineOf({ id: '1', name: 'execute', args: { command: 'npm test' } })).toBe('npm test');
    expect(headlineOf({ id: '1', name: 'read_file', args: { path: 'a.ts' } })).toBe('a.ts');
    expect(headlineOf({ id: '1', name: 'x', args: {} })).toBe('');
  });
});
