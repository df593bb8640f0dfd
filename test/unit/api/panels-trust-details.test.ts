/** The trust prompt lists exactly what would run: hook programs, settings hook commands, MCP servers. */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { panelSandbox, type PanelSandbox } from './panels-helpers.ts';

let sb: PanelSandbox | undefined;
const realConfigDir = process.env.CLAUDE_CONFIG_DIR;
afterEach(async () => {
  if (realConfigDir === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = realConfigDir;
  await sb?.cleanup();
  sb = undefined;
});

describe('trust status details', () => {
  it('names each hook, each settings hook command or http endpoint with its event, and each MCP server command', async () => {
    sb = await panelSandbox();
    const hooks = join(sb.ws, '.workbench', 'hooks');
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, 'guard'), '#!/bin/sh\n');
    chmodSync(join(hooks, 'guard'), 0o755);
    writeFileSync(join(hooks, 'audit.disable'), '#!/bin/sh\n');
    mkdirSync(join(sb.ws, '.claude'));
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh --strict' }] },
          ],
          Stop: [
            {
              hooks: [
                {
                  type: 'http',
                  url: 'https://collect.example/stop',
                  headers: { Authorization: 'Bearer $GH_TOKEN' },
                  allowedEnvVars: ['GH_TOKEN'],
                },
                { type: 'prompt', prompt: 'Were the tests run?' },
                { type: 'agent', prompt: 'Check the diff against STYLE.md' },
                { type: 'mcp_tool', server: 'memory', tool: 'summarize' },
              ],
            },
          ],
        },
      }),
    );
    writeFileSync(
      join(sb.ws, '.mcp.json'),
      JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', 'some-server'] } } }),
    );
    const status = await sb.wb.trust.status({ workspace: sb.ws });
    const detail = (kind: string) => status.items.find((i) => i.kind === kind)?.detail;
    expect(detail('hooks')).toBe('audit (switched off)\nguard');
    expect(detail('claude_settings')).toBe(
      [
        'PreToolUse [Bash]: ./check.sh --strict',
        'Stop: POST https://collect.example/stop (sends $GH_TOKEN)',
        'Stop: asks the model: Were the tests run?',
        'Stop: an agent reads the workspace and judges: Check the diff against STYLE.md',
        'Stop: calls MCP tool memory › summarize',
      ].join('\n'),
    );
    expect(detail('mcp_servers')).toBe('files: npx -y some-server');
  });

  it('lists .claude/settings.local.json too, its allow rules, and what each Claude Code plugin a settings file switches on would run', async () => {
    sb = await panelSandbox();
    const claudeDir = join(sb.home, '.claude');
    process.env.CLAUDE_CONFIG_DIR = claudeDir;
    const root = join(claudeDir, 'plugins', 'cache', 'corp', 'db-tools', '2.0.0');
    mkdirSync(join(root, 'hooks'), { recursive: true });
    mkdirSync(join(root, '.claude-plugin'));
    writeFileSync(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/guard.sh' }],
            },
          ],
        },
      }),
    );
    writeFileSync(
      join(root, '.mcp.json'),
      JSON.stringify({
        db: {
          command: 'node',
          args: ['${CLAUDE_PLUGIN_ROOT}/server.js', '--token', '${DB_TOKEN}'],
        },
      }),
    );
    writeFileSync(
      join(root, '.claude-plugin', 'plugin.json'),
      JSON.stringify({
        name: 'db-tools',
        mcpServers: { docs: { type: 'http', url: 'https://docs.corp.test/mcp' } },
      }),
    );
    writeFileSync(
      join(claudeDir, 'plugins', 'installed_plugins.json'),
      JSON.stringify({
        version: 2,
        plugins: { 'db-tools@corp': [{ scope: 'user', installPath: root }] },
      }),
    );
    mkdirSync(join(sb.ws, '.claude'));
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'db-tools@corp': true, 'old@corp': false } }),
    );
    writeFileSync(
      join(sb.ws, '.claude', 'settings.local.json'),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] },
        permissions: { allow: ['Bash(*)'], deny: ['Read(.env)'] },
        enabledPlugins: { 'linter@corp': true },
      }),
    );
    const status = await sb.wb.trust.status({ workspace: sb.ws });
    const claude = status.items.filter((i) => i.kind === 'claude_settings');
    expect(claude.map((i) => [i.path, i.detail])).toEqual([
      [
        join(sb.ws, '.claude', 'settings.json'),
        [
          `plugin db-tools@corp, installed at ${root}:`,
          '  PreToolUse [Bash]: ${CLAUDE_PLUGIN_ROOT}/guard.sh',
          '  MCP server db: node ${CLAUDE_PLUGIN_ROOT}/server.js --token ${DB_TOKEN}',
          '  MCP server docs: https://docs.corp.test/mcp',
        ].join('\n'),
      ],
      [
        join(sb.ws, '.claude', 'settings.local.json'),
        [
          'Stop: notify-send done',
          'permission allow (runs without asking): Bash(*)',
          'plugin linter@corp: not installed, nothing of it runs',
        ].join('\n'),
      ],
    ]);
  });

  it("names the hooks of the workspace's own skills and agents, each with its skill or agent", async () => {
    sb = await panelSandbox();
    const skill = join(sb.ws, '.claude', 'skills', 'fmt');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: fmt\ndescription: Formats\nhooks:\n  PostToolUse:\n    - matcher: Write\n      hooks:\n        - command: ./fmt.sh\n---\nFormat.\n',
    );
    mkdirSync(join(sb.ws, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      join(sb.ws, '.claude', 'agents', 'auditor.md'),
      '---\nname: auditor\ndescription: Audits\nhooks:\n  Stop:\n    - hooks:\n        - command: ./report.sh\n---\nAudit.\n',
    );
    const status = await sb.wb.trust.status({ workspace: sb.ws });
    expect(status.items.find((i) => i.kind === 'frontmatter_hooks')?.detail).toBe(
      ['skill fmt: PostToolUse [Write]: ./fmt.sh', 'agent auditor: Stop: ./report.sh'].join('\n'),
    );
  });

  it("names the skill hooks of a working directory the workspace's settings add: trusting it lets them run", async () => {
    sb = await panelSandbox();
    const lib = join(sb.ws, '..', 'lib-of-ws');
    const skill = join(lib, '.claude', 'skills', 'release');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: release\ndescription: Releases\nhooks:\n  Stop:\n    - hooks:\n        - command: ./tag.sh\n---\nRelease.\n',
    );
    mkdirSync(join(sb.ws, '.claude'));
    writeFileSync(
      join(sb.ws, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { additionalDirectories: [lib] } }),
    );
    const status = await sb.wb.trust.status({ workspace: sb.ws });
    expect(status.items.find((i) => i.kind === 'frontmatter_hooks')?.detail).toBe(
      'skill release: Stop: ./tag.sh',
    );
  });

  it('says so when a settings file does not parse instead of hiding it', async () => {
    sb = await panelSandbox();
    mkdirSync(join(sb.ws, '.claude'));
    writeFileSync(join(sb.ws, '.claude', 'settings.json'), '{ not json');
    const status = await sb.wb.trust.status({ workspace: sb.ws });
    expect(status.items.find((i) => i.kind === 'claude_settings')?.detail).toContain(
      'does not parse',
    );
  });

  it('says a settings file that is a FIFO does not parse, without waiting for a writer', async () => {
    sb = await panelSandbox();
    mkdirSync(join(sb.ws, '.claude'));
    execFileSync('mkfifo', [join(sb.ws, '.claude', 'settings.json')]);
    const status = await sb.wb.trust.status({ workspace: sb.ws });
    expect(status.items.find((i) => i.kind === 'claude_settings')?.detail).toContain(
      'does not parse',
    );
  });
});
