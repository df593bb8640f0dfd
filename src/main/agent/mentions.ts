/**
 * A user's `@` mentions (docs/tools.md#mentions), as Claude Code reads them: `@src/app.ts` a file,
 * `@src/` a folder's listing, `@"name with spaces.md"`, `@server:scheme://path` an MCP server's
 * resource. Each becomes a call of the tool that reads it (read_file, ls, read_mcp_resource), made
 * for the person before the model's first turn and through the same hooks, permission rules and
 * workspace guard as the model's own calls: a mention reaches nothing the model could not read.
 * A word whose path does not exist stays plain text (`@alice`, `@todo`), and so does code.
 */
import { lstatSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { ToolCall } from '../../shared/types/index.ts';
import { MAX_MENTIONS, MENTION_CALL_PREFIX, RESOURCE_MENTION } from '../../shared/constants.ts';

/** `@word` or `@"quoted words"`, after the start or whitespace (so `a@b.com` is no mention). */
const MENTION = /(?:^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g;
/** `@` words looked up at most per message (most name nothing). */
const MAX_LOOKED = 200;
/** Fenced blocks and inline code: pasted code (`@Override`, a decorator) holds no mention. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
/** What ends a sentence after a mention rather than belonging to its path. */
const TRAILING = /[.,;:!?)\]'`]+$/;

/** What a mention can use: the workspace root and whether a tool is offered in this run. */
export interface MentionScope {
  root: string;
  hasTool: (name: string) => boolean;
}

/**
 * The tool calls reading the mentions of `text`, in order, each mention once.
 * Contract: never throws; only paths that exist (or resources of a run that offers them) count.
 */
export function mentionCalls(text: string, scope: MentionScope): ToolCall[] {
  const calls: ToolCall[] = [];
  const seen = new Set<string>();
  let looked = 0;
  for (const m of text.replace(CODE, ' ').matchAll(MENTION)) {
    // A message of thousands of `@` words costs a bounded number of lookups.
    if (calls.length >= MAX_MENTIONS || ++looked > MAX_LOOKED) break;
    const call = m[1] !== undefined ? pathCall(m[1], scope) : wordCall(m[2]!, scope);
    if (!call) continue;
    const key = JSON.stringify([call.name, call.args]);
    if (seen.has(key)) continue;
    seen.add(key);
    calls.push({ id: `${MENTION_CALL_PREFIX}${randomBytes(6).toString('hex')}`, ...call });
  }
  return calls;
}

type Call = Omit<ToolCall, 'id'>;

function wordCall(word: string, scope: MentionScope): Call | undefined {
  const resource = RESOURCE_MENTION.exec(word.replace(TRAILING, ''));
  if (resource)
    return scope.hasTool('read_mcp_resource')
      ? { name: 'read_mcp_resource', args: { server: resource[1]!, uri: resource[2]! } }
      : undefined;
  return (
    pathCall(word, scope) ??
    (TRAILING.test(word) ? pathCall(word.replace(TRAILING, ''), scope) : undefined)
  );
}

function pathCall(path: string, scope: MentionScope): Call | undefined {
  let isDir: boolean;
  try {
    // lstat: a symlink is read_file's to follow or refuse, under its own guard.
    isDir = lstatSync(resolve(scope.root, path)).isDirectory();
  } catch {
    return undefined;
  }
  const name = isDir ? 'ls' : 'read_file';
  return scope.hasTool(name) ? { name, args: { path } } : undefined;
}
