/**
 * Network allowed by a person for one command ("Allow with network" on the approval prompt): the
 * approval ring grants it for a call id, the execute tool takes it once. Keyed by the thread's
 * state object, so a call id from one thread never opens the network for another.
 */
const grants = new WeakMap<object, Set<string>>();

/** Lets call `callId` of the thread holding `state` use the network once. */
export function grantNetwork(state: object, callId: string): void {
  let set = grants.get(state);
  if (!set) grants.set(state, (set = new Set()));
  set.add(callId);
}

/** True once if a person allowed the network for this call. */
export function takeNetworkGrant(state: object, callId: string): boolean {
  return grants.get(state)?.delete(callId) ?? false;
}
