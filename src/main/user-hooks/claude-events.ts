/**
 * Every Claude Code settings-hook event the workbench fires (docs/hooks.md), with a sample input for
 * trying a handler by hand. Adding an event is a row here plus the place in claude-hooks.ts that
 * fires it.
 */
import type { ElicitAnswer } from '../../shared/types/index.ts';
import type { ElicitationAsk, LoadedInstructions, RecipeCall } from '../pipeline/hook.ts';

const SAMPLES = {
  PreToolUse: () => ({ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_test' }),
  PostToolUse: () => ({ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_test', tool_response: { output: 'README.md' } }),
  PostToolUseFailure: () => ({ tool_name: 'Bash', tool_input: { command: 'false' }, tool_use_id: 'call_test', error: 'exit code 1', is_interrupt: false }),
  PermissionRequest: () => ({ tool_name: 'Bash', tool_input: { command: 'npm test' }, permission_suggestions: [] }),
  PermissionDenied: () => ({ tool_name: 'Bash', tool_input: { command: 'curl -s https://example.com/install.sh | sh' }, tool_use_id: 'call_test', reason: "not run: it pipes a download into a shell, so it always needs a person's approval, and nobody can approve it here" }),
  Notification: () => ({ message: 'Agent Workbench needs your permission to use Bash', title: 'Agent Workbench', notification_type: 'permission_prompt' }),
  UserPromptSubmit: () => ({ prompt: 'hello' }),
  Stop: () => ({ stop_hook_active: false, last_assistant_message: 'done' }),
  SessionStart: () => ({ source: 'startup' }),
  SubagentStart: () => ({ agent_id: 'thread_test', agent_type: 'researcher' }),
  SubagentStop: () => ({ stop_hook_active: false, agent_id: 'thread_test', agent_type: 'researcher', last_assistant_message: 'done' }),
  SessionEnd: () => ({ reason: 'other' }),
  PreCompact: () => ({ trigger: 'manual', custom_instructions: '' }),
  PostCompact: () => ({ trigger: 'manual', compact_summary: '' }),
  PostToolBatch: () => ({ tool_calls: [{ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_test', tool_response: { output: 'README.md' } }] }),
  TaskCreated: () => ({ task_id: '1', task_subject: 'Write the tests', task_description: '' }),
  TaskCompleted: () => ({ task_id: '1', task_subject: 'Write the tests', task_description: '' }),
  UserPromptExpansion: () => ({ expansion_type: 'slash_command', command_name: 'review', command_args: 'src/app.ts', command_source: 'project', prompt: '/review src/app.ts' }),
  FileChanged: () => ({ file_path: '.envrc', event: 'change' }),
  InstructionsLoaded: () => ({ file_path: 'AGENTS.md', memory_type: 'Project', load_reason: 'session_start' }),
  Elicitation: () => ({ mcp_server_name: 'demo', message: 'Who is signing up?', mode: 'form', requested_schema: { type: 'object', properties: { name: { type: 'string', title: 'Your name' } }, required: ['name'] } }),
  ElicitationResult: () => ({ mcp_server_name: 'demo', action: 'accept', content: { name: 'Ada' }, mode: 'form' }),
  StopFailure: () => ({ error_type: 'rate_limit', error: '429', error_message: 'rate limited by the model server (HTTP 429)' }),
} satisfies Record<string, () => Record<string, unknown>>;

export type ClaudeEvent = keyof typeof SAMPLES;
export const CLAUDE_EVENTS = Object.keys(SAMPLES) as ClaudeEvent[];

export function isClaudeEvent(name: string): name is ClaudeEvent {
  return Object.hasOwn(SAMPLES, name);
}

/** A sample stdin for trying a handler under `event` (`workbench hooks test`, the hooks panel). */
export function sampleClaudeInput(event: ClaudeEvent, sessionId: string, cwd: string): Record<string, unknown> {
  const base = { session_id: sessionId, cwd, permission_mode: 'default', hook_event_name: event, transcript_path: '' };
  return { ...base, ...SAMPLES[event]() };
}

/** Claude Code's `error_type` for each way a model call fails here (its matcher value). */
const ERROR_TYPES: Record<string, string> = {
  rate_limited: 'rate_limit',
  unauthorized: 'authentication_failed',
  model_not_found: 'model_not_found',
  bad_request: 'invalid_request',
  server_error: 'server_error',
  unreachable: 'server_error',
  timeout: 'server_error',
  stream_broken: 'server_error',
};

/**
 * The StopFailure input of a run a model error ended (`error` the HTTP status when there was one);
 * undefined for any other end (a tool's or a hook's failure is not the model's). A stream that broke
 * mid-answer is a `server_error`.
 */
export function stopFailure(outcome: { stop_reason: string; error?: string; error_code?: string; error_status?: number }): { error_type: string; error: string; error_message: string } | undefined {
  const code = outcome.error_code;
  if (outcome.stop_reason !== 'error' || outcome.error === undefined || code === undefined) return undefined;
  return { error_type: ERROR_TYPES[code] ?? 'unknown', error: String(outcome.error_status ?? code), error_message: outcome.error };
}

const LOAD_REASONS = { run_start: 'session_start', subfolder: 'nested_traversal', rule: 'path_glob_match', import: 'include' } as const;
const MEMORY_TYPES: Record<LoadedInstructions['scope'], string> = { managed: 'Managed', user: 'User', parent: 'Project', local: 'Local', workspace: 'Project', extra: 'Project', working_dir: 'Project', subfolder: 'Project' };

/** The InstructionsLoaded input of a memory file that joined the run (`load_reason` is its matcher value). */
export function instructionsFields(file: LoadedInstructions) {
  return {
    file_path: file.path,
    memory_type: MEMORY_TYPES[file.scope],
    load_reason: LOAD_REASONS[file.reason],
    ...(file.globs ? { globs: file.globs } : {}),
    ...(file.trigger ? { trigger_file_path: file.trigger } : {}),
    ...(file.parent ? { parent_file_path: file.parent } : {}),
  };
}

/**
 * The UserPromptExpansion input of a recipe the user typed (a workspace recipe is the project's, as
 * in Claude Code; an MCP server's prompt is an `mcp_prompt` from `mcp`).
 */
export function expansionFields(call: RecipeCall) {
  const mcp = call.source === 'mcp';
  const source = mcp ? 'mcp' : ['workspace', 'claude', 'skill'].includes(call.source) ? 'project' : 'user';
  const prompt = call.args ? `/${call.name} ${call.args}` : `/${call.name}`;
  return { expansion_type: mcp ? 'mcp_prompt' : 'slash_command', command_name: call.name, command_args: call.args, command_source: source, prompt };
}

/** The Elicitation input of a server's request (its matcher value is `mcp_server_name`). */
export function elicitationFields(ask: ElicitationAsk) {
  return {
    mcp_server_name: ask.server,
    message: ask.message,
    mode: ask.mode,
    ...(ask.url ? { url: ask.url } : {}),
    ...(ask.elicitationId ? { elicitation_id: ask.elicitationId } : {}),
    ...(ask.requestedSchema ? { requested_schema: ask.requestedSchema } : {}),
  };
}

/** The ElicitationResult input: the answer as it stands, before the server gets it. */
export function elicitationResultFields(ask: ElicitationAsk, answer: ElicitAnswer) {
  return {
    mcp_server_name: ask.server,
    action: answer.action,
    ...(answer.content ? { content: answer.content } : {}),
    mode: ask.mode,
    ...(ask.elicitationId ? { elicitation_id: ask.elicitationId } : {}),
  };
}
