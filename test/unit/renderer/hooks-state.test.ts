import { describe, expect, it } from 'vitest';
import type { HookInfo } from '../../../src/shared/types/index.ts';
import {
  hookState,
  runFailed,
  runOutcome,
} from '../../../src/renderer/features/hooks/hook-state.ts';

const hook = (p: Partial<HookInfo>): HookInfo => ({
  id: 'executable:user:a',
  name: 'a',
  source: 'user',
  dialect: 'executable',
  events: ['after_tool_call'],
  enabled: true,
  trusted: true,
  ...p,
});

describe('hook state badges', () => {
  it('reads off, untrusted, problem and on like `workbench hooks list`', () => {
    expect(hookState(hook({}), false)).toBe('on');
    expect(hookState(hook({ enabled: false }), false)).toBe('off');
    expect(hookState(hook({ trusted: false, problem: 'workspace not trusted' }), false)).toBe(
      'untrusted',
    );
    expect(hookState(hook({ problem: 'not executable' }), false)).toBe('problem');
  });

  it('"disable all" turns user hooks off but not built-ins', () => {
    expect(hookState(hook({}), true)).toBe('off');
    expect(hookState(hook({ dialect: 'builtin', source: 'builtin' }), true)).toBe('on');
  });

  it('describes run outcomes', () => {
    expect(runOutcome({ timed_out: true, signal: 'SIGKILL', exit_code: null })).toBe('timeout');
    expect(runOutcome({ timed_out: false, signal: 'SIGTERM', exit_code: null })).toBe('SIGTERM');
    expect(runOutcome({ timed_out: false, signal: null, exit_code: 2 })).toBe('exit 2');
    expect(runFailed({ error: 'hook timed out' })).toBe(true);
    expect(runFailed({})).toBe(false);
  });
});
