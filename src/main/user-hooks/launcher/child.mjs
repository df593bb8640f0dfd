// @ts-check
/**
 * The hook launcher's own process (docs/hooks.md#how-a-hook-is-started): a small Node program that
 * starts hook processes for the workbench and tells it, as JSON lines on stdout, what each did.
 * Requests come as JSON lines on stdin (`LauncherRequest`). It only starts, relays and reaps: the
 * deadlines, kills and caps that guard a hook stay in the workbench, which kills a hook's process
 * group by its pid. When the workbench goes (stdin ends), every hook still running goes with it.
 * Plain JavaScript on Node built-ins (type-checked through JSDoc): loading Node's TypeScript
 * support would double its private memory, and it must start in milliseconds and stay small.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** @typedef {import('./protocol.ts').LauncherRequest} LauncherRequest */
/** @typedef {import('./protocol.ts').LauncherReply} LauncherReply */
/** @typedef {import('node:child_process').ChildProcessWithoutNullStreams} Child */

/** @type {Map<number, Child>} */
const running = new Map();

/** @param {LauncherReply} r */
const reply = (r) => process.stdout.write(`${JSON.stringify(r)}\n`);

/**
 * Relays a stream's bytes up to `cap`; beyond it only counts them (told with `close`).
 * @param {number} id
 * @param {1 | 2} fd
 * @param {number} cap
 * @param {import('node:stream').Readable} stream
 * @returns {() => number} the bytes dropped so far
 */
function relay(id, fd, cap, stream) {
  let sent = 0;
  let dropped = 0;
  stream.on('data', (/** @type {Buffer} */ chunk) => {
    const room = cap - sent;
    if (room <= 0) return void (dropped += chunk.length);
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    sent += part.length;
    dropped += chunk.length - part.length;
    reply({ id, ev: 'out', fd, data: part.toString('base64') });
  });
  return () => dropped;
}

/** @param {Extract<LauncherRequest, { op: 'run' }>} req */
function run(req) {
  const { id } = req;
  /** @type {Child} */
  let child;
  try {
    child = spawn(req.command, req.args, {
      cwd: req.cwd,
      env: req.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (e) {
    const err = /** @type {NodeJS.ErrnoException} */ (e);
    reply({ id, ev: 'error', code: err.code, message: err.message });
    return;
  }
  child.on('error', (/** @type {NodeJS.ErrnoException} */ err) => {
    reply({ id, ev: 'error', code: err.code, message: err.message });
    if (child.pid === undefined) running.delete(id);
  });
  if (child.pid !== undefined) {
    running.set(id, child);
    reply({ id, ev: 'spawn', pid: child.pid });
  }
  const droppedOut = relay(id, 1, req.caps[0], child.stdout);
  const droppedErr = relay(id, 2, req.caps[1], child.stderr);
  child.stdin.on('error', () => {});
  child.stdin.end(req.stdin);
  child.on('exit', (code, signal) => {
    reply({ id, ev: 'exit', code, signal });
    child.stdin.destroy();
  });
  child.on('close', () => {
    running.delete(id);
    reply({ id, ev: 'close', dropped: [droppedOut(), droppedErr()] });
  });
}

/**
 * Stops relaying a hook the workbench is done with (its group was killed; its pipes may linger).
 * @param {number} id
 */
function drop(id) {
  const child = running.get(id);
  running.delete(id);
  child?.stdout.destroy();
  child?.stderr.destroy();
}

function endAll() {
  for (const child of running.values()) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  process.exit(0);
}

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const req = /** @type {LauncherRequest} */ (JSON.parse(line));
    if (req.op === 'run') run(req);
    else drop(req.id);
  })
  .on('close', endAll);
// The workbench reading our stdout went away: nothing left to report to.
process.stdout.on('error', endAll);
reply({ ev: 'ready' });
