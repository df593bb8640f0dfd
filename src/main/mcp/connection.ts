/**
 * One MCP server (docs/tools.md#mcp-servers): started over stdio (with the child environment, no
 * inherited secrets, and a process marker so nothing it starts outlives the workbench) or Streamable
 * HTTP; its tools listed; a crash restarted with a bounded backoff; every step reported as a
 * lifecycle event, stderr included. A call the server refuses until the person finishes a page (MCP's
 * URL elicitation required error) asks them to, then is tried once more.
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  CallToolResult,
  ElicitRequest,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitAnswer, McpServerStatus } from '../../shared/types/index.ts';
import type { ElicitationAsk } from '../pipeline/hook.ts';
import { elicitationAsk } from './elicitation-ask.ts';
import { pausableDeadline } from './pausable-deadline.ts';
import { safeChildEnv } from '../env/child-env.ts';
import { killMarked, newProcessMarker, withMarker } from '../tools/process-tracking.ts';
import { errorMessage } from '../errors.ts';
import type { McpServerSpec } from './config.ts';
import { collectPages, listAllPrompts, listAllTools } from './listings.ts';

/** What a server did, for the trace and the settings panel. */
export interface McpLifecycleEvent {
  server: string;
  kind:
    | 'connecting'
    | 'connected'
    | 'tools_listed'
    | 'stderr'
    | 'crashed'
    | 'restarting'
    | 'failed'
    | 'closed';
  message?: string;
  tools?: number;
}

export interface McpConnectionOptions {
  onEvent?: (e: McpLifecycleEvent) => void;
  /** Deadline of the handshake and the tool listing (default 15 s). */
  connectTimeoutMs?: number;
  /** Restarts after a crash before the server is left failed (default 5). */
  maxRestarts?: number;
  /** Wait before restart n (default 500 ms doubling, at most 30 s). */
  restartDelayMs?: (n: number) => number;
  /** The folders the server is told it works in (MCP roots): the workspace and its added working directories, as Claude Code tells its working directories. */
  roots?: readonly string[];
}

/** Answers a request for input the server makes during a call (docs/tools.md#when-a-server-asks-you). */
export type Elicit = (ask: Omit<ElicitationAsk, 'server'>) => Promise<ElicitAnswer>;

/** The SDK's own deadline of a call, which ours replaces (a setTimeout cannot wait longer). */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;

/**
 * How long a call that changed the server's tools waits for their new list before it returns: a
 * listing takes milliseconds; one that never comes is applied whenever it does (or never).
 */
const RELIST_WAIT_MS = 2_000;

/** Waits for `work` (which never rejects) at most `ms`. */
function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work, cap]).finally(() => clearTimeout(timer));
}

/** The last stderr lines kept to explain a failure. */
const STDERR_LINES = 20;

export interface McpConnection {
  readonly spec: McpServerSpec;
  status(): McpServerStatus;
  tools(): McpTool[];
  /** Its prompts (MCP prompts: Claude Code's `/mcp__server__prompt` commands), listed when it connected and when they change. */
  prompts(): Prompt[];
  /** One prompt filled with `args`. Rejects when not connected or the server refuses. */
  getPrompt(
    name: string,
    args: Record<string, string>,
    opts: { timeoutMs: number },
  ): Promise<GetPromptResult>;
  /** Resolves once the server is connected or has failed. */
  ready(): Promise<void>;
  /**
   * Contract: waits for a restart in progress; rejects when the server is not connected, and with a
   * "timed out" error after `timeoutMs` — not counting the time a request for input (`elicit`)
   * waits for its answer.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number; elicit?: Elicit },
  ): Promise<CallToolResult>;
  /** Whether the connected server offers resources (MCP `resources` capability). */
  offersResources(): boolean;
  /** Changes when the server reports that its resources changed (MCP list_changed). */
  resourcesVersion(): number;
  /** Its resources, page after page, at most `max` (`more` when it has others). Rejects when not connected. */
  listResources(opts: {
    signal: AbortSignal;
    timeoutMs: number;
    max: number;
  }): Promise<{ resources: Resource[]; more: boolean }>;
  /** One resource's contents. Rejects when not connected or the server refuses. */
  readResource(
    uri: string,
    opts: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ReadResourceResult>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Creates and starts a connection. Contract: never throws; a failure is its status. */
export function createMcpConnection(
  spec: McpServerSpec,
  opts: McpConnectionOptions = {},
): McpConnection {
  const emit = (e: Omit<McpLifecycleEvent, 'server'>) =>
    opts.onEvent?.({ server: spec.name, ...e });
  const maxRestarts = opts.maxRestarts ?? 5;
  const delay = opts.restartDelayMs ?? ((n: number) => Math.min(500 * 2 ** (n - 1), 30_000));
  const marker = newProcessMarker();
  let client: Client | undefined;
  let tools: McpTool[] = [];
  let prompts: Prompt[] = [];
  /** Counts the server's reports that its resources changed (listings kept elsewhere go stale). */
  let resourcesVersion = 0;
  /** The listing that follows the server's last report that its tools changed. */
  let toolsRelisted: Promise<void> = Promise.resolve();
  let status: McpServerStatus['status'] = 'connecting';
  let error: string | undefined;
  let stderr: string[] = [];
  let restarts = 0;
  let closed = false;
  /** The calls under way, oldest first: a request for input is asked through the oldest. */
  const inFlight: { elicit?: Elicit }[] = [];
  /** The request for input being asked; the next waits for it. */
  let asking: Promise<unknown> = Promise.resolve();
  /** Pages waiting to be finished, by the server's elicitation id: its completion settles them. */
  const pages = new Map<string, () => void>();
  let pending: Promise<void> = start();
  let restartTimer: NodeJS.Timeout | undefined;

  /** Waits until no start or restart is under way (a failed restart may schedule another). */
  async function settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = pending;
      await current;
    } while (current !== pending);
  }

  /** The SDK is loaded on first use: a run or CLI command without MCP servers never pays for it. */
  async function transport(): Promise<Transport> {
    if (spec.transport === 'http') {
      const { StreamableHTTPClientTransport } =
        await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: spec.headers },
      });
    }
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const t = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: withMarker({ ...safeChildEnv(), ...spec.env }, marker),
      cwd: spec.cwd,
      stderr: 'pipe',
    });
    t.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        stderr = [...stderr, line].slice(-STDERR_LINES);
        emit({ kind: 'stderr', message: line.slice(0, 1000) });
      }
    });
    return t;
  }

  async function start(): Promise<void> {
    status = 'connecting';
    emit({ kind: 'connecting' });
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const roots = opts.roots ?? [];
    const c: Client = new Client(
      { name: 'agent-workbench', version: '1' },
      {
        capabilities: {
          elicitation: { form: {}, url: {} },
          // A connection's roots never change: other roots start a new connection (manager.ts).
          ...(roots.length > 0 ? { roots: {} } : {}),
        },
      },
    );
    const schemas = await import('@modelcontextprotocol/sdk/types.js');
    const { ElicitRequestSchema, ElicitationCompleteNotificationSchema, ListRootsRequestSchema } =
      schemas;
    const timeout = opts.connectTimeoutMs ?? 15_000;
    // A server whose lists change says so (MCP list_changed): what it has then is what the next
    // run offers and the composer lists.
    c.setNotificationHandler(schemas.ToolListChangedNotificationSchema, () => {
      toolsRelisted = relist(c, 'tools', listAllTools(c, timeout), (listed) => {
        tools = listed;
        emit({ kind: 'tools_listed', tools: listed.length });
      });
      return toolsRelisted;
    });
    c.setNotificationHandler(schemas.PromptListChangedNotificationSchema, () =>
      relist(c, 'prompts', listAllPrompts(c, timeout), (listed) => (prompts = listed)),
    );
    c.setNotificationHandler(schemas.ResourceListChangedNotificationSchema, () => {
      resourcesVersion++;
    });
    if (roots.length > 0)
      c.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) })),
      }));
    // MCP gives a request for input no call id: it is asked through the oldest call under way, one
    // request of a server at a time (a server asking many at once gets them asked in turn).
    c.setRequestHandler(ElicitRequestSchema, async (request) => {
      const asked = elicitationAsk(request.params);
      const answer = await inTurn(() => {
        const asker = inFlight.find((f) => f.elicit)?.elicit;
        if (asker) return untilFinished(asked, asker);
        emit({
          kind: 'stderr',
          message: `asked for input with no call under way (declined): ${asked.message.slice(0, 200)}`,
        });
        return Promise.resolve({ action: 'decline' as const });
      });
      return { ...answer };
    });
    // An id no page waits under (unknown, or answered already) is ignored, as MCP requires.
    c.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      pages.get(n.params.elicitationId)?.();
    });
    try {
      await c.connect(await transport(), { timeout });
      const listed = await listAllTools(c, timeout);
      const listedPrompts = await listAllPrompts(c, timeout).catch((err: unknown) => {
        emit({ kind: 'stderr', message: `its prompts could not be listed: ${errorMessage(err)}` });
        return [];
      });
      if (closed) return void (await c.close());
      client = c;
      tools = listed;
      prompts = listedPrompts;
      status = 'connected';
      error = undefined;
      c.onclose = () => onClosed(c);
      emit({ kind: 'connected' });
      emit({ kind: 'tools_listed', tools: listed.length });
    } catch (err) {
      await c.close().catch(() => undefined);
      if (closed) return;
      // A restart that fails is tried again, within the same bound; a first start is not.
      if (restarts > 0) {
        emit({ kind: 'failed', message: `cannot restart: ${errorMessage(err)}` });
        return scheduleRestart();
      }
      fail(`cannot start: ${errorMessage(err)}`);
    }
  }

  /**
   * Takes the new listing of a server that said its list changed, unless that client was replaced
   * (a restart lists anew) meanwhile; a failure keeps the last list.
   */
  async function relist<T>(
    c: Client,
    what: string,
    listing: Promise<T>,
    apply: (listed: T) => void,
  ): Promise<void> {
    const current = () => !closed && (client === undefined || client === c);
    try {
      const listed = await listing;
      if (current()) apply(listed);
    } catch (err) {
      if (!current()) return;
      emit({
        kind: 'stderr',
        message: `its ${what} could not be listed again: ${errorMessage(err)}`,
      });
    }
  }

  /** Runs `ask` once the server's request asked before it was answered. */
  function inTurn<T>(ask: () => Promise<T>): Promise<T> {
    const turn = asking.then(ask);
    asking = turn.catch(() => undefined);
    return turn;
  }

  /** Asks `ask`; a page can be settled by the server's report that it finished while it waits. */
  async function untilFinished(
    ask: Omit<ElicitationAsk, 'server'>,
    asker: Elicit,
  ): Promise<ElicitAnswer> {
    const id = ask.mode === 'url' ? ask.elicitationId : undefined;
    if (id === undefined || pages.has(id)) return asker(ask);
    const finished = new Promise<void>((resolve) => pages.set(id, resolve));
    try {
      return await asker({ ...ask, finished });
    } finally {
      pages.delete(id);
    }
  }

  /**
   * After the server refused a call until pages are finished: asks the person to finish each, in
   * turn. Resolves when all were; otherwise rejects saying what the server needed.
   */
  async function finishPages(refusal: unknown, elicit: Elicit | undefined): Promise<void> {
    const needed = requiredPages(refusal);
    for (const page of needed) {
      const ask = { ...elicitationAsk(page), required: true };
      const answer = elicit
        ? await inTurn(() => untilFinished(ask, elicit))
        : { action: 'decline' as const };
      if (answer.action !== 'accept')
        throw new Error(
          `MCP server "${spec.name}" needs a page finished before this call: ${ask.message} (${page.url.slice(0, 500)}); ${answer.action === 'decline' ? 'declined' : 'cancelled'}`,
        );
    }
  }

  function connected(): Client {
    if (!client)
      throw new Error(`MCP server "${spec.name}" is not connected${error ? `: ${error}` : ''}`);
    return client;
  }

  function fail(message: string): void {
    status = 'failed';
    error = message;
    emit({ kind: 'failed', message });
  }

  function onClosed(c: Client): void {
    if (closed || client !== c) return;
    client = undefined;
    emit({ kind: 'crashed', message: stderr.at(-1) });
    scheduleRestart();
  }

  function scheduleRestart(): void {
    if (restarts >= maxRestarts) return fail(`stopped ${restarts + 1} times; not restarted again`);
    restarts++;
    const wait = delay(restarts);
    emit({ kind: 'restarting', message: `restart ${restarts} of ${maxRestarts} in ${wait} ms` });
    status = 'connecting';
    pending = new Promise<void>((resolve) => {
      restartTimer = setTimeout(() => void start().then(resolve), wait);
    });
  }

  return {
    spec,
    status: () => ({
      name: spec.name,
      source: spec.source,
      transport: spec.transport,
      status,
      // stderr read at the time of asking: the last lines may arrive after the failure.
      ...(error ? { error: [error, ...stderr].join('\n') } : {}),
      restarts,
    }),
    tools: () => tools,
    prompts: () => prompts,
    async getPrompt(name, args, { timeoutMs }) {
      return connected().getPrompt({ name, arguments: args }, { timeout: timeoutMs });
    },
    ready: settled,
    async callTool(name, args, { signal, timeoutMs, elicit }) {
      await settled();
      connected();
      const deadline = pausableDeadline(timeoutMs, signal);
      const call = {
        elicit:
          elicit &&
          (async (ask: Omit<ElicitationAsk, 'server'>) => {
            deadline.pause();
            try {
              return await elicit(ask);
            } finally {
              deadline.resume();
            }
          }),
      };
      inFlight.push(call);
      const relistedBefore = toolsRelisted;
      const attempt = async () =>
        (await connected().callTool({ name, arguments: args }, undefined, {
          signal: deadline.signal,
          timeout: NO_SDK_TIMEOUT,
        })) as CallToolResult;
      try {
        let result: CallToolResult;
        try {
          result = await attempt();
        } catch (err) {
          if (requiredPages(err).length === 0) throw err;
          await finishPages(err, call.elicit);
          // Tried once more: a server that still refuses gets its own message back to the model.
          result = await attempt();
        }
        restarts = 0;
        // A call that changed the server's tools (a sign-in) returns once their new list is in,
        // so the run's next request offers them (the server says so before it answers).
        if (toolsRelisted !== relistedBefore) await settledWithin(toolsRelisted, RELIST_WAIT_MS);
        return result;
      } catch (err) {
        if (deadline.expired())
          throw new Error(`request timed out after ${timeoutMs} ms`, { cause: err });
        throw err;
      } finally {
        inFlight.splice(inFlight.indexOf(call), 1);
        deadline.clear();
      }
    },
    offersResources: () => client?.getServerCapabilities()?.resources !== undefined,
    resourcesVersion: () => resourcesVersion,
    async listResources({ signal, timeoutMs, max }) {
      const c = connected();
      const { items, more } = await collectPages(async (cursor) => {
        const page = await c.listResources(cursor ? { cursor } : undefined, {
          signal,
          timeout: timeoutMs,
        });
        return { items: page.resources, nextCursor: page.nextCursor };
      }, max);
      return { resources: items, more };
    },
    async readResource(uri, { signal, timeoutMs }) {
      return connected().readResource({ uri }, { signal, timeout: timeoutMs });
    },
    async restart() {
      const c = client;
      client = undefined;
      await c?.close().catch(() => undefined);
      await killMarked(marker);
      restarts = 0;
      stderr = [];
      pending = start();
      await pending;
    },
    async close() {
      closed = true;
      clearTimeout(restartTimer);
      const c = client;
      client = undefined;
      await c?.close().catch(() => undefined);
      if (spec.transport === 'stdio') await killMarked(marker);
      status = 'closed';
      emit({ kind: 'closed' });
    },
  };
}

/** MCP's error for a call refused until the person finishes pages (`URLElicitationRequiredError`). */
const URL_ELICITATION_REQUIRED = -32042;

/** The most pages one refusal may ask for; a server listing more gets the first ones asked. */
const MAX_REQUIRED_PAGES = 5;

type PageParams = Extract<ElicitRequest['params'], { mode: 'url' }>;

/**
 * Pages a refused call needs finished first, as the error lists them. Read from the error's shape
 * (the SDK's error classes are not loaded until a server is used).
 */
function requiredPages(err: unknown): PageParams[] {
  const e = err as { code?: unknown; data?: { elicitations?: unknown } } | undefined;
  if (e?.code !== URL_ELICITATION_REQUIRED) return [];
  const listed = e.data?.elicitations;
  if (!Array.isArray(listed)) return [];
  return listed
    .filter(
      (e): e is PageParams =>
        typeof e === 'object' &&
        e !== null &&
        e.mode === 'url' &&
        typeof e.url === 'string' &&
        typeof e.message === 'string' &&
        typeof e.elicitationId === 'string',
    )
    .slice(0, MAX_REQUIRED_PAGES);
}
