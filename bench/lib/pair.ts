/** Paired sampling: A and B alternate (A,B then B,A) so drift on a shared machine hits both alike. */
export async function samplePair(
  runs: number,
  warmup: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number[], number[]]> {
  const time = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      as.push(await time(a));
      bs.push(await time(b));
    } else {
      bs.push(await time(b));
      as.push(await time(a));
    }
  }
  return [as, bs];
}
