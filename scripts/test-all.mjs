// Runs every check `npm test` promises — typecheck, lint, unit + integration (vitest), build, e2e
// (Playwright) — keeps going after a failure, and ends with the plain line CI reads:
// `N passed, N failed, N skipped`. Exit code is non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);
mkdirSync('reports', { recursive: true });

// Every step's temporary folders (the tests' homes, workspaces and databases, ~200 MB a run) go into
// one folder of this run, removed at the end, instead of piling up in the machine's /tmp. Open to all
// like /tmp itself: tests that drop root's powers still reach their folders. The folder is named
// after this process, so a run killed before its end (Ctrl-C, a timeout) has its folder removed by
// the next run, once that process is gone.
removeFoldersOfEndedRuns();
const runTmp = mkdtempSync(join(tmpdir(), `wb-test-run-${process.pid}-`));
chmodSync(runTmp, 0o1777);

function removeFoldersOfEndedRuns() {
  for (const name of readdirSync(tmpdir())) {
    const pid = /^wb-test-run-(\d+)-/.exec(name)?.[1];
    if (!pid || isAlive(Number(pid))) continue;
    const dir = join(tmpdir(), name);
    try {
      // Only this user's: another user's run folder in a shared /tmp is theirs to clean.
      if (statSync(dir).uid === process.getuid?.()) rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      console.warn(`[test] could not remove ${dir}, left by an earlier run: ${err.message}`);
    }
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

const counts = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n[test] ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, TMPDIR: runTmp, ...env } });
  console.log(`[test] ${label} exited ${r.status ?? r.signal} after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return r.status === 0;
}

function check(label, ok) {
  if (ok) counts.passed++;
  else {
    counts.failed++;
    failures.push(label);
  }
}

function readJson(file) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (want('typecheck')) check('typecheck', run('typecheck', 'npm', ['run', '--silent', 'typecheck']));
if (want('lint')) check('lint', run('lint', 'npm', ['run', '--silent', 'lint']));

if (want('vitest')) {
  rmSync('reports/vitest.json', { force: true });
  const ok = run('unit+integration', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=reports/vitest.json']);
  const report = readJson('reports/vitest.json');
  if (!report) check('vitest (no report)', false);
  else {
    counts.passed += report.numPassedTests;
    counts.failed += report.numFailedTests;
    counts.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? [])
      for (const t of file.assertionResults ?? [])
        if (t.status === 'failed') failures.push(`${file.name.replace(process.cwd() + '/', '')} › ${t.fullName}`);
    // A file that fails to import has no failed test but a failed run.
    if (!ok && report.numFailedTests === 0) check('vitest run (suite error)', false);
  }
}

if (want('e2e')) {
  const built = run('build', 'npm', ['run', '--silent', 'build']);
  check('build', built);
  if (built) {
    rmSync('reports/e2e.json', { force: true });
    const ok = run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'reports/e2e.json' });
    const report = readJson('reports/e2e.json');
    // Playwright writes the report whenever it finishes; without one the results are unknown.
    if (!report) check('e2e (no report)', false);
    else {
      const s = report.stats ?? {};
      counts.passed += (s.expected ?? 0) + (s.flaky ?? 0);
      counts.failed += s.unexpected ?? 0;
      counts.skipped += s.skipped ?? 0;
      if (!ok && !s.unexpected) check('e2e run', false);
    }
  }
}

if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  - ${f}`);
}
rmSync(runTmp, { recursive: true, force: true });
console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed > 0 ? 1 : 0);
