/** Sample Claude Code stdin for trying a handler by hand (`workbench hooks test`). */

export function sampleClaudeInput(event: string, sessionId: string, cwd: string): Record<string, unknown> {
  const base = { session_id: sessionId, cwd, permission_mode: 'default', hook_event_name: event, transcript_path: '' };
  switch (event) {
    case 'PreToolUse':
      return { ...base, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_test' };
    case 'PostToolUse':
      return { ...base, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_test', tool_response: { output: 'README.md' } };
    case 'PostToolUseFailure':
      return { ...base, tool_name: 'Bash', tool_input: { command: 'false' }, tool_use_id: 'call_test', error: 'exit code 1', is_interrupt: false };
    case 'UserPromptSubmit':
      return { ...base, prompt: 'hello' };
    case 'Stop':
      return { ...base, stop_hook_active: false, last_assistant_message: 'done' };
    case 'SessionStart':
      return { ...base, source: 'startup' };
    case 'SessionEnd':
      return { ...base, reason: 'other' };
    default:
      return { ...base, trigger: 'manual' };
  }
}
