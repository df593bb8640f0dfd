/**
 * The profile middleware: the agent.yaml system prompt as the first system block of every request,
 * and its tools allowlist applied to the tools each request offers. The prompt is not stored in the
 * thread, so editing agent.yaml takes effect on the next request of every thread.
 */
import { profileOffers, type AgentProfile } from '../agents/profile.ts';
import type { Hook, MiddlewareInfo } from '../pipeline/hook.ts';

export const profileInfo: MiddlewareInfo = {
  name: 'profile',
  description: 'System prompt and tools allowlist from .workbench/agent.yaml',
  phases: ['modify_request'],
};

/**
 * Creates the profile hook.
 * Contract: the prompt comes before every other system block; with an allowlist only the listed
 * tools are offered, and never a disallowed one (the loop refuses a call to a tool the request did
 * not offer); never mutates its input.
 */
export function createProfileHook(
  profile: Pick<AgentProfile, 'system_prompt' | 'tools' | 'disallowed_tools'>,
): Hook {
  const filters = Boolean(profile.tools?.length || profile.disallowed_tools?.length);
  return {
    name: profileInfo.name,
    source: 'builtin',
    description: profileInfo.description,
    async modifyRequest(_ctx, req) {
      return {
        ...req,
        system: [profile.system_prompt, ...req.system],
        tools: filters ? req.tools.filter((t) => profileOffers(profile, t.name)) : req.tools,
      };
    },
  };
}
