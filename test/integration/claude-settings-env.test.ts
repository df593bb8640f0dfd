/**
 * Claude Code's settings `env` reaches the agent's commands as it does at home: every settings
 * file's block (a workspace's once it is trusted), the more specific file winning, and never a
 * secret-looking name, which stays out of every child's environment.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTrustStore } from '../../src/main/user-hooks/index.ts';
import { useScriptedWorkbench } from '../helpers/scripted-workbench.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';

const env = useClaudeSandbox();
const scripted = useScriptedWorkbench(env);

function settings(file: string, block: Record<string, unknown>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ env: block }));
}

/** What `printenv` shows the agent's command for these names, one `NAME=value` or `NAME unset` each. */
async function seen(names: string[]): Promise<string> {
  const command = names.map((n) => `printf '%s\\n' "${n}=\${${n}-unset}"`).join('; ');
  const { events } = await scripted.run([
    { toolCalls: [{ name: 'execute', args: { command } }] },
    { text: 'done' },
  ]);
  const end = events.find((e) => e.event === 'on_tool_end')!.data as { output: string; status: string };
  expect(end.status).toBe('ok');
  return end.output;
}

describe("Claude Code's settings env", () => {
  it('is set for the commands, a trusted workspace over your own file', async () => {
    settings(join(env.claudeDir, 'settings.json'), { BUILD_MODE: 'yours', ONLY_YOURS: 'kept', RETRIES: 3 });
    settings(join(env.sb.ws, '.claude', 'settings.json'), { BUILD_MODE: 'project' });
    settings(join(env.sb.ws, '.claude', 'settings.local.json'), { ONLY_LOCAL: 'local' });
    await createTrustStore(env.sb.home).trust(env.sb.ws);
    const out = await seen(['BUILD_MODE', 'ONLY_YOURS', 'ONLY_LOCAL', 'RETRIES']);
    expect(out).toContain('BUILD_MODE=project');
    expect(out).toContain('ONLY_YOURS=kept');
    expect(out).toContain('ONLY_LOCAL=local');
    // Not a string: skipped, as Claude Code skips it.
    expect(out).toContain('RETRIES=unset');
  });

  it("of an untrusted workspace is not set; your own file's is", async () => {
    settings(join(env.claudeDir, 'settings.json'), { BUILD_MODE: 'yours' });
    settings(join(env.sb.ws, '.claude', 'settings.json'), { BUILD_MODE: 'project', PROJECT_ONLY: 'x' });
    const out = await seen(['BUILD_MODE', 'PROJECT_ONLY']);
    expect(out).toContain('BUILD_MODE=yours');
    expect(out).toContain('PROJECT_ONLY=unset');
  });

  it('never hands a command a secret-looking name', async () => {
    settings(join(env.claudeDir, 'settings.json'), {
      ANTHROPIC_API_KEY: 'sk-ant-settings-0123456789',
      GITHUB_TOKEN: 'ghp_settings0123456789',
      PLAIN: 'visible',
    });
    const out = await seen(['ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'PLAIN']);
    expect(out).toContain('ANTHROPIC_API_KEY=unset');
    expect(out).toContain('GITHUB_TOKEN=unset');
    expect(out).toContain('PLAIN=visible');
  });
});
