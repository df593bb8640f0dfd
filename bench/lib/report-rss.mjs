// Preloaded with `node --import` by the cli group: on exit, writes this process's peak RSS (KiB) to $WB_BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.WB_BENCH_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
