/**
 * The composer's `@server:uri` completion (docs/tools.md#mentions): the resources of the servers
 * already running for the workspace (completing never starts one), as Claude Code lists them beside
 * the files. A server's list is asked at most every 30 s, not at every key typed, or again when it
 * reports that its resources changed.
 */
import type { McpConnection } from './connection.ts';

/** How long a server's listing answers completions before it is asked again. */
const LISTING_TTL_MS = 30_000;
/** Resources asked of one server for completion. */
const MAX_LISTED = 500;
const LIST_TIMEOUT_MS = 5_000;

interface Listing {
  at: number;
  /** The server's `resourcesVersion()` when asked: a report that they changed asks again. */
  version: number;
  mentions: Promise<{ mention: string; words: string }[]>;
}

const listings = new WeakMap<McpConnection, Listing>();

/**
 * Up to `limit` mentions (`server:uri`) whose URI, name or title contains `query` (any case).
 * Contract: never rejects; a server that cannot list adds nothing.
 */
export async function resourceMentions(
  conns: readonly McpConnection[],
  query: string,
  limit = 20,
): Promise<string[]> {
  const q = query.toLowerCase();
  const lists = await Promise.all(conns.filter((c) => c.offersResources()).map(listingOf));
  return lists
    .flat()
    .filter((r) => r.words.includes(q))
    .map((r) => r.mention)
    .slice(0, limit);
}

function listingOf(conn: McpConnection): Promise<{ mention: string; words: string }[]> {
  const known = listings.get(conn);
  const version = conn.resourcesVersion();
  if (known && known.version === version && Date.now() - known.at < LISTING_TTL_MS)
    return known.mentions;
  const mentions = conn
    .listResources({
      signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
      timeoutMs: LIST_TIMEOUT_MS,
      max: MAX_LISTED,
    })
    .then(({ resources }) =>
      resources.map((r) => {
        const mention = `${conn.spec.name}:${r.uri}`;
        return { mention, words: [mention, r.name, r.title ?? ''].join('\n').toLowerCase() };
      }),
    )
    .catch(() => []);
  listings.set(conn, { at: Date.now(), version, mentions });
  return mentions;
}
