import { describe, expect, it } from 'vitest';
import { displayName } from '../../../src/main/user-hooks/claude-config.ts';

describe('Claude hook display names', () => {
  it.each([
    ['python3 /x/guard.py --strict', 'guard.py'],
    ['env GUARD=1 bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/rm-guard.sh', 'rm-guard.sh'],
    ['/usr/bin/env python3 ~/.claude/hooks/secrets.py', 'secrets.py'],
    ['node ${CLAUDE_PLUGIN_ROOT}/scripts/fmt.mjs', 'fmt.mjs'],
    ['uv run ~/hooks/lint.py', 'lint.py'],
    ['jq -r .tool_input.command', 'jq'],
    ['"$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh"', 'check.sh'],
  ])('%s is named %s', (command, name) => {
    expect(displayName(command)).toBe(name);
  });

  it('names an exec-form handler by its script argument', () => {
    expect(displayName('python3', ['-u', '/a/b/audit.py'])).toBe('audit.py');
  });
});
