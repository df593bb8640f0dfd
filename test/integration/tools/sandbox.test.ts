/**
 * The command sandbox with real bubblewrap: what a hostile command can and cannot reach
 * (docs/tools.md#sandbox).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExecuteTool, type ExecuteSandboxOptions } from '../../../src/main/tools/execute.ts';
import { detectSandbox } from '../../../src/main/tools/sandbox/index.ts';
import { grantNetwork } from '../../../src/main/tools/sandbox/network-grants.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';
import { run, tempWorkspace, type TempWorkspace } from '../../unit/tools/helpers.ts';
import { runCli, sandbox as cliSandbox } from '../../helpers/run-cli.ts';
import { startFakeOpenAi } from '../../helpers/fake-openai-server.ts';

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';
const title = `sandboxed execute${availability.available ? '' : ` (skipped: ${availability.reason})`}`;
const CANARY = 'canary-5e1f0b27';

let t: TempWorkspace;
let home: string;
let workbenchHome: string;
beforeEach(async () => {
  t = await tempWorkspace();
  // Outside /tmp: the sandbox's private /tmp would hide a home folder there whatever it hides itself.
  home = await fs.mkdtemp('/var/tmp/wb-sandbox-home-');
  workbenchHome = path.join(home, 'wbhome');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), CANARY);
  await fs.writeFile(path.join(home, '.netrc'), CANARY);
  await fs.writeFile(path.join(home, '.claude.json'), JSON.stringify({ mcpServers: { CANARY } }));
  await fs.mkdir(workbenchHome);
  await fs.writeFile(path.join(workbenchHome, 'secrets.json'), CANARY);
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
  return t.cleanup();
});

const opts = (patch: Partial<ExecuteSandboxOptions> = {}): ExecuteSandboxOptions => ({
  settings: { mode: 'auto', network: false },
  workbenchHome,
  home,
  ...patch,
});
const exec = (command: string, patch: Partial<ExecuteSandboxOptions> = {}) =>
  run(createExecuteTool({ sandbox: opts(patch), killGraceMs: 300 }), { command }, t.ctx);

describe.skipIf(!bwrapUsable)(title, () => {
  it('writes in the workspace and says it ran sandboxed', async () => {
    const r = await exec('echo hi > made.txt && cat made.txt');
    expect(r.text).toBe('hi\n\nexit code: 0\ncommand sandboxed (bubblewrap, no network)');
    expect(await fs.readFile(path.join(t.root, 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('cannot write git hooks or config, existing or not yet, nor .workbench', async () => {
    await fs.mkdir(path.join(t.root, '.git', 'hooks'), { recursive: true });
    await fs.writeFile(path.join(t.root, '.git', 'config'), '[core]\n');
    await fs.writeFile(path.join(t.root, '.git', 'hooks', 'post-merge'), '#!/bin/sh\n');
    const attempts = [
      'echo evil > .git/hooks/pre-commit',
      'echo evil >> .git/hooks/post-merge',
      'git config core.fsmonitor evil || echo "[core] fsmonitor = evil" >> .git/config',
      'mkdir -p .workbench/hooks && echo evil > .workbench/hooks/guard',
      'echo evil > .mcp.json',
      'mkdir -p .claude && echo evil > .claude/settings.json',
      'rm -rf .git/hooks; mv .git/hooks .git/h2',
    ];
    for (const command of attempts) await exec(command);
    await expect(fs.stat(path.join(t.root, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
    expect(await fs.readFile(path.join(t.root, '.git', 'hooks', 'post-merge'), 'utf8')).toBe(
      '#!/bin/sh\n',
    );
    expect(await fs.readFile(path.join(t.root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    // The read-only placeholders for missing paths are gone again afterwards.
    expect((await fs.readdir(t.root)).sort()).toEqual(['.git']);
    // An ordinary git write still works.
    const ok = await exec('echo x > .git/description && cat .git/description');
    expect(ok.text).toMatch(/^x\n/);
  });

  it("cannot change existing husky hooks, editor tasks or a home folder's shell startup files, and leaves no mount point where there are none", async () => {
    await fs.mkdir(path.join(t.root, '.husky'));
    await fs.writeFile(path.join(t.root, '.husky', 'pre-commit'), 'npm test\n');
    await fs.mkdir(path.join(t.root, '.vscode'));
    await fs.writeFile(path.join(t.root, '.bashrc'), '# mine\n');
    await exec(
      'echo evil >> .husky/pre-commit; echo \'{"tasks":[]}\' > .vscode/tasks.json; echo evil >> .bashrc',
    );
    expect(await fs.readFile(path.join(t.root, '.husky', 'pre-commit'), 'utf8')).toBe('npm test\n');
    expect(await fs.readdir(path.join(t.root, '.vscode'))).toEqual([]);
    expect(await fs.readFile(path.join(t.root, '.bashrc'), 'utf8')).toBe('# mine\n');
    // Where there is no .idea, the command sees none (no empty file in its place) and may make one.
    const r = await exec('ls -a; mkdir .idea && echo made');
    expect(r.text).not.toMatch(/^\.idea$/m);
    expect(r.text).toMatch(/^made$/m);
  });

  it("cannot plant hooks outside the sandbox through agents, skills or Kodelet's hook folders, nor change submodules", async () => {
    await fs.mkdir(path.join(t.root, '.claude', 'skills', 'csv'), { recursive: true });
    await fs.writeFile(
      path.join(t.root, '.claude', 'skills', 'csv', 'SKILL.md'),
      '---\nname: csv\n---\n',
    );
    await fs.writeFile(path.join(t.root, '.gitmodules'), '[submodule "lib"]\n');
    await exec(
      [
        'mkdir -p .claude/agents; echo "hooks: evil" > .claude/agents/auditor.md',
        'echo "hooks: evil" >> .claude/skills/csv/SKILL.md',
        'mkdir -p .kodelet/hooks && printf "#!/bin/sh\\necho evil\\n" > .kodelet/hooks/audit && chmod +x .kodelet/hooks/audit',
        'echo "url = https://evil.example/lib" >> .gitmodules',
      ].join('; '),
    );
    expect((await fs.readdir(path.join(t.root, '.claude'))).sort()).toEqual(['skills']);
    expect(
      await fs.readFile(path.join(t.root, '.claude', 'skills', 'csv', 'SKILL.md'), 'utf8'),
    ).toBe('---\nname: csv\n---\n');
    await expect(fs.stat(path.join(t.root, '.kodelet'))).rejects.toThrow();
    expect(await fs.readFile(path.join(t.root, '.gitmodules'), 'utf8')).toBe('[submodule "lib"]\n');
    expect((await fs.readdir(t.root)).sort()).toEqual(['.claude', '.gitmodules']);
  });

  it('puts back a link on the way to a protected path that a command replaced, and says so', async () => {
    // Claude Code's folder kept elsewhere in the repository, and git hooks in a tracked folder.
    await fs.mkdir(path.join(t.root, 'config'));
    await fs.symlink('config', path.join(t.root, '.claude'));
    await fs.mkdir(path.join(t.root, '.git'));
    await fs.mkdir(path.join(t.root, 'git-hooks'));
    await fs.symlink('../git-hooks', path.join(t.root, '.git', 'hooks'));
    const r = await exec(
      [
        'rm .claude && mkdir .claude && echo evil > .claude/settings.json',
        'rm .git/hooks && mkdir .git/hooks && echo evil > .git/hooks/pre-commit',
        'echo done',
      ].join('; '),
    );
    expect(r.text).toMatch(/^done\n/);
    expect(await fs.readlink(path.join(t.root, '.claude'))).toBe('config');
    expect(await fs.readlink(path.join(t.root, '.git', 'hooks'))).toBe('../git-hooks');
    expect(await fs.readdir(path.join(t.root, 'config'))).toEqual([]);
    expect(await fs.readdir(path.join(t.root, 'git-hooks'))).toEqual([]);
    expect(r.text).toMatch(
      /the command replaced \.claude, a link to config the sandbox keeps; it was put back \(what the command left there is now \.claude\.replaced-\d+\)/,
    );
    expect(r.text).toMatch(
      /the command replaced \.git\/hooks, a link to \.\.\/git-hooks the sandbox keeps/,
    );
    // An untouched link is not mentioned.
    const calm = await exec('cat .claude/nothing 2>/dev/null; echo calm');
    expect(calm.text).not.toMatch(/replaced/);
  });

  it('cannot create files in an existing .workbench folder', async () => {
    await fs.mkdir(path.join(t.root, '.workbench'));
    const r = await exec('echo evil > .workbench/settings.json; echo tried');
    expect(r.text).toMatch(/tried/);
    expect(await fs.readdir(path.join(t.root, '.workbench'))).toEqual([]);
  });

  it('cannot write through a link to a protected path that does not exist yet', async () => {
    await fs.mkdir(path.join(t.root, '.git'));
    await fs.symlink('.git/hooks', path.join(t.root, 'hooks-link'));
    await exec('mkdir -p hooks-link; echo evil > hooks-link/pre-commit');
    await expect(fs.stat(path.join(t.root, '.git', 'hooks'))).rejects.toThrow();
  });

  it('cannot read secrets in the home folder or the workbench home', async () => {
    const r = await exec(
      `cat ${home}/.ssh/id_rsa ${home}/.netrc ${home}/.claude.json ${workbenchHome}/secrets.json; ls -A ${home}/.ssh`,
    );
    expect(r.text).not.toContain(CANARY);
    expect(r.text).not.toContain('id_rsa\n');
  });

  describe('network', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((_req, res) => res.end(CANARY));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const fetchCmd = () =>
      `node -e "fetch('${url}').then(r => r.text()).then(console.log, e => console.log('failed', e.cause?.code))"`;

    it('has no network by default, and has it when allowed', async () => {
      const denied = await exec(fetchCmd());
      expect(denied.text).toMatch(/^failed/);
      expect(denied.text).not.toContain(CANARY);
      const allowed = await exec(fetchCmd(), { settings: { mode: 'auto', network: true } });
      expect(allowed.text).toContain(CANARY);
      expect(allowed.text).toContain('network allowed');
    });

    it('opens the network for one call a person allowed', async () => {
      grantNetwork(t.ctx.state, t.ctx.callId);
      expect((await exec(fetchCmd())).text).toContain(CANARY);
      expect((await exec(fetchCmd())).text).not.toContain(CANARY);
    });
  });

  it("does not see the workbench's environment through /proc", async () => {
    const env = await cliSandbox();
    const fake = await startFakeOpenAi({
      script: [
        {
          toolCalls: [
            {
              name: 'execute',
              args: {
                command: `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done; echo listed`,
              },
            },
          ],
        },
        { text: 'done' },
      ],
    });
    try {
      const r = await runCli(['run', '--auto', '--json', 'look'], {
        ...env,
        baseURL: fake.baseURL,
        extra: { OPENAI_API_KEY: CANARY, WB_SANDBOX_CANARY: CANARY },
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('listed');
      expect(r.stdout).toContain('PATH=');
      expect(r.stdout).not.toContain(CANARY);
    } finally {
      await fake.close();
    }
  });

  it('leaves no setsid or nohup child behind', async () => {
    const marker = `wb-sbx-${process.pid}-${Date.now()}`;
    const r = await exec(
      `setsid sh -c 'sleep 300; : ${marker}' & nohup sh -c 'sleep 301; : ${marker}' >/dev/null 2>&1 & disown; sleep 0.2; echo started`,
    );
    expect(r.text).toMatch(/^started\n/);
    const survivors = () =>
      execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes(marker) && !l.trim().startsWith('Z'));
    // The kernel ends the PID namespace with its init; allow it a moment to finish.
    for (let i = 0; i < 50 && survivors().length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(survivors()).toEqual([]);
  });

  it('has a private /tmp', async () => {
    const name = `wb-sbx-tmp-${process.pid}-${Date.now()}`;
    await exec(`echo x > /tmp/${name}`);
    await expect(fs.stat(path.join('/tmp', name))).rejects.toThrow();
  });

  it('says so on the CLI', async () => {
    const env = await cliSandbox();
    const r = await runCli(['run', '--model', 'm', 'hi'], {
      ...env,
      baseURL: 'http://127.0.0.1:9/v1',
    });
    expect(r.stderr.split('\n')[0]).toBe('commands: sandboxed (bubblewrap, no network)');
  });
});

describe('without a sandbox', () => {
  const missing = async () => ({
    available: false as const,
    reason: 'bwrap not found; install bubblewrap',
  });

  it('refuses commands when the sandbox is required', async () => {
    const r = await exec(`touch ${path.join(t.root, 'ran')}`, {
      settings: { mode: 'required', network: false },
      detect: missing,
    });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/sandbox is required in settings but unavailable: bwrap not found/);
    await expect(fs.stat(path.join(t.root, 'ran'))).rejects.toThrow();
  });

  it('runs unsandboxed under auto and says so', async () => {
    const r = await exec('echo hi', { detect: missing });
    expect(r.text).toBe(
      'hi\n\nexit code: 0\ncommand NOT sandboxed — bwrap not found; install bubblewrap',
    );
    expect(DEFAULT_SETTINGS.sandbox).toEqual({ mode: 'auto', network: false });
  });
});
