/**
 * Keeps the event loop polling for a short while as an answer from another process is awaited. An
 * idle loop sleeps in the kernel and, on a virtual machine, pays 0.05–0.1 ms to wake when the answer
 * arrives — half the round trip to a persistent hook server that answers in 0.1 ms. Polling takes the
 * answer as it arrives (other events are served meanwhile); past `maxMs` the loop sleeps as usual.
 */
export const SPIN_MS = 1;

/** Polls the event loop while `waiting()` holds, for at most `maxMs`. */
export function spinWhile(waiting: () => boolean, maxMs = SPIN_MS): void {
  const until = performance.now() + maxMs;
  const spin = () => {
    if (waiting() && performance.now() < until) setImmediate(spin);
  };
  setImmediate(spin);
}
