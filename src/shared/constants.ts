/** Limits and defaults of the agent, middleware and user hooks; one place so tests and docs agree. */
export const MAX_RESULT_CHARS = 80_000;
export const EVICTION_KEEP_CHARS = 2_000;
export const SUMMARIZATION_TRIGGER = 0.85;
export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const SUMMARY_MAX_WORDS = 2_000;
export const KEEP_RATIO = 0.1;
export const MIN_KEEP_MESSAGES = 2;
export const OLD_MESSAGE_TRUNCATION = 2_000;
export const MAX_ITERATIONS = 25;
export const THREAD_TTL_MS = 60 * 60 * 1000;
export const THREAD_SWEEP_MS = 5 * 60 * 1000;
export const TODO_STATUSES = ['pending', 'in_progress', 'done'] as const;
export const EXECUTABLE_HOOK_TIMEOUT_MS = 30_000;
/** Claude Code's own default for a command hook since its 2.1.3 (it was 60 s before). */
export const CLAUDE_HOOK_TIMEOUT_MS = 600_000;
/** Claude Code's default for a `UserPromptSubmit` command hook (the user is waiting on it) and for a `prompt` handler. */
export const CLAUDE_PROMPT_HOOK_TIMEOUT_MS = 30_000;
/** Claude Code's default for an `agent` handler (a few turns of reading before its verdict). */
export const CLAUDE_AGENT_HOOK_TIMEOUT_MS = 60_000;
/** The longest a `SessionEnd` hook may hold the end of a run, whatever its timeout (as Claude Code caps it). */
export const CLAUDE_SESSION_END_MAX_MS = 60_000;
export const HOOK_KILL_GRACE_MS = 2_000;
export const EXECUTE_TIMEOUT_MS = 120_000;
/** `@` mentions read from one message at most (docs/tools.md#mentions); more stay plain text. */
export const MAX_MENTIONS = 20;
/** `@server:scheme://…` (without the `@`): an MCP server's resource; groups: the server, the URI. */
export const RESOURCE_MENTION = /^([A-Za-z0-9_.-]+):([A-Za-z][A-Za-z0-9+.-]*:\/\/\S+)$/;
/** The id prefix of a tool call made to read a person's `@` mention: the chat labels those as theirs. */
export const MENTION_CALL_PREFIX = 'mention_';
