/**
 * Reading a Claude Code hook's answer (docs/hooks.md, Claude Code settings hooks): exit 2 blocks with
 * stderr; exit 0 stdout starting with `{` is strict JSON; other exit codes are non-blocking errors
 * unless stdout holds a valid JSON object, which then decides alone.
 */
import { isRecord, parseHookJson } from './json-output.ts';
import { processFailure } from './record.ts';
import type { HookProcessResult } from './runner.ts';
import type { HookReading } from './types.ts';
import { errorMessage } from '../errors.ts';
import type { ElicitAnswer } from '../../shared/types/index.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resultText } from '../mcp/tools.ts';

const MAX_TEXT = 10_000;

/** What one Claude handler asked for. */
export interface ClaudeVerdict {
  /** deny / decision "block": the reason. */
  block?: string;
  /** `continue: false`: the run ends (the prompt or tool call does not go ahead); `stopReason` is shown to the user. */
  halt?: string;
  ask?: string;
  allow?: boolean;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  systemMessage?: string;
  updatedToolOutput?: string;
  /** PostToolUse `updatedMCPToolOutput`: an MCP tool's output as the model reads it (other tools keep theirs). */
  updatedMCPToolOutput?: string;
  /** PermissionRequest `hookSpecificOutput.decision`: the answer in the person's place. */
  permission?: { behavior: 'allow' | 'deny'; message?: string; interrupt?: boolean };
  /** PermissionDenied `hookSpecificOutput.retry`: the model is told it may retry the refused call. */
  retry?: boolean;
  /** SessionStart / FileChanged `watchPaths`: the files FileChanged hooks watch besides their matchers' (absolute paths). */
  watchPaths?: string[];
  /** Elicitation / ElicitationResult `hookSpecificOutput.action` and `content`: the answer to give the server. */
  elicitation?: ElicitAnswer;
  /** Set when the run failed (treated per fail mode). */
  failed?: string;
}

const cap = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

function optStr(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Error(`"${key}" must be a string`);
  return v;
}

/** Reads the JSON object into a verdict. Throws with a schema message on a bad field. */
function fromJson(o: Record<string, unknown>, event: string): ClaudeVerdict {
  const v: ClaudeVerdict = {};
  if (o.continue !== undefined && typeof o.continue !== 'boolean') throw new Error('"continue" must be a boolean');
  if (o.suppressOutput !== undefined && typeof o.suppressOutput !== 'boolean') throw new Error('"suppressOutput" must be a boolean');
  const stopReason = optStr(o, 'stopReason');
  v.systemMessage = optStr(o, 'systemMessage');
  // The older top-level form; hookSpecificOutput.additionalContext wins when both are set.
  v.additionalContext = optStr(o, 'additionalContext');
  const decision = o.decision;
  if (decision !== undefined && decision !== null && decision !== 'block' && decision !== 'approve') throw new Error('"decision" must be "block" or "approve"');
  const reason = optStr(o, 'reason');
  if (decision === 'block') v.block = reason || 'blocked by hook';
  if (decision === 'approve') v.allow = true;
  const hso = o.hookSpecificOutput;
  if (hso !== undefined && hso !== null) {
    if (!isRecord(hso)) throw new Error('"hookSpecificOutput" must be an object');
    const pd = hso.permissionDecision;
    if (pd !== undefined && !['allow', 'deny', 'ask', 'defer'].includes(pd as string)) throw new Error('"permissionDecision" must be allow, deny, ask or defer');
    const pdr = optStr(hso, 'permissionDecisionReason');
    if (pd === 'deny') v.block = pdr || reason || 'denied by hook';
    if (pd === 'ask' || pd === 'defer') v.ask = pdr || reason || '';
    if (pd === 'allow') v.allow = true;
    if (hso.updatedInput !== undefined && hso.updatedInput !== null) {
      if (!isRecord(hso.updatedInput)) throw new Error('"updatedInput" must be an object');
      v.updatedInput = hso.updatedInput;
    }
    v.additionalContext = optStr(hso, 'additionalContext') ?? v.additionalContext;
    const uto = hso.updatedToolOutput;
    if (uto !== undefined && uto !== null) v.updatedToolOutput = typeof uto === 'string' ? uto : JSON.stringify(uto);
    if (hso.updatedMCPToolOutput !== undefined && hso.updatedMCPToolOutput !== null) v.updatedMCPToolOutput = mcpOutputText(hso.updatedMCPToolOutput);
    if (event === 'PermissionRequest' && hso.decision !== undefined && hso.decision !== null) v.permission = permissionDecision(hso.decision);
    if (event === 'PermissionDenied' && hso.retry !== undefined && hso.retry !== null) {
      if (typeof hso.retry !== 'boolean') throw new Error('"retry" must be a boolean');
      if (hso.retry) v.retry = true;
    }
    if ((event === 'Elicitation' || event === 'ElicitationResult') && hso.action !== undefined && hso.action !== null) v.elicitation = elicitationAnswer(hso);
    if (hso.watchPaths !== undefined && hso.watchPaths !== null) {
      if (!Array.isArray(hso.watchPaths) || !hso.watchPaths.every((p) => typeof p === 'string')) throw new Error('"watchPaths" must be an array of paths');
      v.watchPaths = hso.watchPaths as string[];
    }
  }
  if (o.continue === false) v.halt = stopReason || reason || `stopped by hook (${event})`;
  return v;
}

/**
 * An `updatedMCPToolOutput` as the model reads an MCP result: text as it is, content blocks (or a
 * result with `content`) as an MCP tool's own; throws with a schema message on anything else.
 */
function mcpOutputText(value: unknown): string {
  if (typeof value === 'string') return value;
  const content = isRecord(value) ? value.content : value;
  if (!Array.isArray(content) || !content.every((c) => isRecord(c) && typeof c.type === 'string'))
    throw new Error('"updatedMCPToolOutput" must be text, content blocks or an object with "content"');
  const result = isRecord(value) ? value : { content };
  return resultText(result as CallToolResult);
}

/** An Elicitation answer (`action`, `content`); throws with a schema message when it is not one. */
function elicitationAnswer(hso: Record<string, unknown>): ElicitAnswer {
  if (hso.action !== 'accept' && hso.action !== 'decline' && hso.action !== 'cancel') throw new Error('"action" must be "accept", "decline" or "cancel"');
  if (hso.content !== undefined && hso.content !== null && !isRecord(hso.content)) throw new Error('"content" must be an object');
  return { action: hso.action, ...(isRecord(hso.content) ? { content: hso.content as ElicitAnswer['content'] } : {}) };
}

/** A PermissionRequest `decision` object; throws with a schema message when it is not one. */
function permissionDecision(d: unknown): NonNullable<ClaudeVerdict['permission']> {
  if (!isRecord(d)) throw new Error('"decision" must be an object');
  if (d.behavior !== 'allow' && d.behavior !== 'deny') throw new Error('"decision.behavior" must be "allow" or "deny"');
  if (d.interrupt !== undefined && typeof d.interrupt !== 'boolean') throw new Error('"decision.interrupt" must be a boolean');
  const message = optStr(d, 'message');
  return { behavior: d.behavior, ...(message ? { message } : {}), ...(d.interrupt === true ? { interrupt: true } : {}) };
}

/**
 * Reads a process result into the stored reading and the verdict.
 * Contract: a truncated or unparsable stdout never yields a decision (no partial updatedInput).
 */
export function readClaudeResult(event: string, res: HookProcessResult): { reading: HookReading; verdict: ClaudeVerdict } {
  const failure = processFailure(res);
  if (failure) return { reading: { decision: 'error', error: failure }, verdict: { failed: failure } };
  const stdout = res.stdout.replace(/^\uFEFF/, '').trim();
  // A PermissionRequest is answered only through its JSON decision, as in Claude Code.
  if (res.exitCode === 2 && event === 'PermissionRequest') {
    const error = 'exit 2 does not answer a PermissionRequest: print {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny"}}}';
    return { reading: { decision: 'error', error }, verdict: { failed: error } };
  }
  if (res.exitCode === 2) {
    // Exit 2 blocks whatever stdout says (a JSON "allow" cannot override it).
    const reason = cap(res.stderr.trim()) || 'blocked by hook (exit 2)';
    return { reading: { decision: 'block', reason }, verdict: { block: reason } };
  }
  const parsed = stdout.startsWith('{') ? parseHookJson(stdout) : undefined;
  if (parsed?.kind === 'object') {
    try {
      const verdict = fromJson(parsed.value, event);
      // The hook run record shows the message the user was shown when there is no decision reason.
      const reason = verdict.halt ?? verdict.block ?? verdict.ask ?? verdict.permission?.message ?? verdict.systemMessage;
      return { reading: { decision: decisionOf(verdict), reason, jsonValid: true }, verdict };
    } catch (err) {
      const error = `invalid hook output: ${errorMessage(err)}`;
      return { reading: { decision: 'error', error, jsonValid: false }, verdict: { failed: error } };
    }
  }
  if (res.exitCode !== 0) {
    const firstLine = res.stderr.trim().split('\n')[0]?.slice(0, 300);
    const error = `exited with ${res.exitCode ?? res.signal}${firstLine ? `: ${firstLine}` : ''}`;
    return { reading: { decision: 'error', error }, verdict: { failed: error } };
  }
  if (parsed?.kind === 'invalid') return { reading: { decision: 'error', error: parsed.error, jsonValid: false }, verdict: { failed: parsed.error } };
  if (stdout === '') return { reading: { decision: 'none' }, verdict: {} };
  // Plain text is model context only for the prompt and session-start events.
  if (event === 'UserPromptSubmit' || event === 'UserPromptExpansion' || event === 'SessionStart') {
    return { reading: { decision: 'context' }, verdict: { additionalContext: cap(stdout) } };
  }
  return { reading: { decision: 'none' }, verdict: {} };
}

function decisionOf(v: ClaudeVerdict): string {
  if (v.halt !== undefined) return 'stop';
  if (v.permission) return v.permission.behavior;
  if (v.elicitation) return v.elicitation.action;
  if (v.block !== undefined) return 'deny';
  if (v.ask !== undefined) return 'ask';
  if (v.updatedInput) return 'rewrite';
  if (v.retry) return 'retry';
  if (v.updatedToolOutput !== undefined || v.updatedMCPToolOutput !== undefined) return 'replace_output';
  if (v.allow) return 'allow';
  if (v.additionalContext) return 'context';
  return 'none';
}
