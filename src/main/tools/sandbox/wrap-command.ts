/**
 * Turns a shell command into one that runs inside the sandbox: `exec bwrap … -- shell -c command`
 * (or `sandbox-exec -p profile …`), for the process-group runner to start like any command, so
 * deadlines, cancel and the group kill work unchanged. Placeholders bubblewrap leaves in the
 * workspace for missing protected paths are removed afterwards.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { bwrapArgs, PROXY_PORT } from './bwrap-args.ts';
import { startDomainProxy, type RefusalReason } from './domain-proxy.ts';
import { upstreamProxies } from './upstream-proxy.ts';
import { bridgeCommand, bridgeNode } from './proxy-bridge.ts';
import { seatbeltProfile } from './seatbelt-profile.ts';
import { notePlaceholders, sweepPlaceholders } from './placeholder-journal.ts';
import { resolveSandboxPolicy, type SandboxPolicyInput } from './policy.ts';
import type { CommandSandbox } from './command-sandbox.ts';

/** A POSIX shell word that stands for `s` exactly. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A sandboxed command ready for the runner, and the cleanup to call once it ended. */
export interface WrappedCommand {
  command: string;
  /** Variables that must differ inside the sandbox (its private temporary folder, its proxy). */
  env: Record<string, string>;
  cleanup(): Promise<void>;
  /** What the command's result should say once it ended (hosts the proxy refused). */
  notes(): string[];
}

/** Refused hosts a command's result names; past them it counts. */
const NAMED_HOSTS = 10;

/** The variables that send a command's HTTP clients through the proxy; its own loopback stays direct. */
function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  const noProxy = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    // Node's own fetch and http follow the variables only when told to.
    NODE_USE_ENV_PROXY: '1',
  };
}

/**
 * Contract: `sandbox` is sandboxed, and its network and host sockets are the policy's; `cwd` lies
 * inside `where.workspace`; `hostEnv` is the workbench's environment, whose proxies
 * (`HTTPS_PROXY`…) lead the domain proxy out.
 */
export async function wrapCommand(
  sandbox: Extract<CommandSandbox, { kind: 'sandboxed' }>,
  where: Omit<SandboxPolicyInput, 'network' | 'hostSockets'>,
  shell: string,
  command: string,
  cwd: string,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): Promise<WrappedCommand> {
  const input: SandboxPolicyInput = {
    ...where,
    network: sandbox.network,
    hostSockets: sandbox.hostSockets,
  };
  if (sandbox.engine === 'seatbelt') {
    const policy = await resolveSandboxPolicy(input);
    const tmp = await fs.realpath(os.tmpdir());
    const argv = [sandbox.program, '-p', seatbeltProfile(policy, tmp), shell, '-c', command];
    return {
      command: `exec ${argv.map(shellQuote).join(' ')}`,
      env: {},
      cleanup: async () => {},
      notes: () => [],
    };
  }
  const node = sandbox.domains && bridgeNode();
  // The bridge's Node must be there to run, wherever the settings hide things.
  const policy = await resolveSandboxPolicy({
    ...input,
    readable: [...(input.readable ?? []), ...(node ? [node] : [])],
  });
  const proxy = node
    ? await startDomainProxy(
        { allowed: sandbox.domains!, denied: sandbox.deniedDomains },
        upstreamProxies(hostEnv),
      )
    : undefined;
  const argv = [
    sandbox.program,
    ...bwrapArgs(
      policy,
      shell,
      command,
      cwd,
      proxy && { socketPath: proxy.socketPath, bridge: bridgeCommand(node!) },
    ),
  ];
  await sweepPlaceholders(input.workbenchHome);
  const cleanUp = await notePlaceholders(
    input.workbenchHome,
    policy.placeholders,
    policy.pinnedLinks,
    input.workspace,
  );
  const restored: string[] = [];
  return {
    command: `exec ${argv.map(shellQuote).join(' ')}`,
    env: { TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp', ...(proxy ? proxyEnv() : {}) },
    async cleanup() {
      await proxy?.close();
      restored.push(...(await cleanUp()));
    },
    notes: () => [...restored, ...networkNotes()],
  };

  function networkNotes(): string[] {
    if (sandbox.domains && !node)
      return [
        'no network: reaching sandbox.network.allowedDomains needs Node on PATH to run the proxy inside the sandbox',
      ];
    const blocked = proxy?.blocked() ?? [];
    const line = (reason: RefusalReason, why: string) => {
      const hosts = blocked.filter((b) => b.reason === reason).map((b) => b.host);
      if (hosts.length === 0) return [];
      const named = hosts.slice(0, NAMED_HOSTS).join(', ');
      const more = hosts.length > NAMED_HOSTS ? ` and ${hosts.length - NAMED_HOSTS} more` : '';
      return [`the sandbox kept the command from ${named}${more}: ${why}`];
    };
    return [
      ...line('unlisted', 'not in sandbox.network.allowedDomains'),
      ...line(
        'denied',
        'denied by sandbox.network.deniedDomains or a WebFetch(domain:…) deny rule',
      ),
      ...line(
        'local',
        'allowed by a wildcard but leading to this machine, which only a domain named exactly in sandbox.network.allowedDomains reaches',
      ),
    ];
  }
}
