/** Public surface of the command sandbox (docs/tools.md#sandbox). */
export { detectSandbox, type SandboxAvailability } from './detect.ts';
export {
  commandSandbox,
  describeCommandSandbox,
  describeRunSandbox,
  type CommandSandbox,
} from './command-sandbox.ts';
export { wrapCommand, shellQuote, type WrappedCommand } from './wrap-command.ts';
export { sweepPlaceholders } from './placeholder-journal.ts';
export {
  resolveSandboxPolicy,
  HOME_SECRETS,
  type SandboxPolicy,
  type SandboxPolicyInput,
} from './policy.ts';
export { bwrapArgs } from './bwrap-args.ts';
export { seatbeltProfile } from './seatbelt-profile.ts';
export { wrapHookProcess, type HookSandboxOptions, type HookProcess } from './hook-sandbox.ts';
export { grantNetwork, takeNetworkGrant } from './network-grants.ts';
export { setSandboxPaths, sandboxPaths, type SandboxPaths } from './thread-paths.ts';
