/** Runs async work over a list with at most `limit` items in flight, results in input order. */

/**
 * Maps `items` through `fn`, starting the next item as soon as one of at most `limit` running ones
 * settles. Contract: results are in the order of `items`; rejects with the first rejection (items
 * already running keep running, no new item starts).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
