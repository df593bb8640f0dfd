// Preloaded with `node --import` by the cli group: on exit, records the peak RSS (KiB) of the run in
// $WB_BENCH_RSS_FILE. The launcher may hand the run to a child workbench process (to keep the API key out
// of the environment of the process that starts commands); both preload this, the child exits first, and
// the larger of the two peaks is kept, since the child is the one that runs the agent.
import { readFileSync, writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.WB_BENCH_RSS_FILE;
  if (!file) return;
  let earlier = 0;
  try {
    earlier = Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    // First process to finish.
  }
  writeFileSync(file, String(Math.max(earlier, process.resourceUsage().maxRSS)));
});
