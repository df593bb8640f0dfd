/**
 * A Claude Code user's `sandbox.filesystem` settings hold for the agent's commands, with real
 * bubblewrap: `denyRead` hides, `allowRead` opens again inside it, `allowWrite` lets a command write
 * outside the workspace, `denyWrite` keeps a folder read-only (docs/security.md#the-sandbox).
 */
import { execFileSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { createScriptedLlm } from '../helpers/scripted-llm.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { runCli, sandbox as cliSandbox } from '../helpers/run-cli.ts';
import { useClaudeSandbox } from '../unit/user-hooks/helpers.ts';
import { detectSandbox } from '../../src/main/tools/sandbox/index.ts';

const availability = await detectSandbox();
const bwrapUsable = availability.available && availability.engine === 'bubblewrap';

const env = useClaudeSandbox();
let wb: Workbench | undefined;
// Outside /tmp, which every sandboxed command sees as its own empty folder: what the settings
// hide or open there is what a command sees.
let around: string;
let ws: string;
beforeEach(() => {
  around = realpathSync(mkdtempSync('/var/tmp/wb-sandbox-fs-'));
  ws = join(around, 'ws');
  mkdirSync(ws);
});
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  rmSync(around, { recursive: true, force: true });
});

function writeSettings(file: string, filesystem: object): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ sandbox: { enabled: true, filesystem } }));
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** Runs each command in auto mode; what the model was told for each, and the run's diagnostics. */
async function runCommands(commands: string[], approvalMode: 'auto' | 'auto-edit' = 'auto') {
  const llm = createScriptedLlm([
    ...commands.map((command) => ({ toolCalls: [{ name: 'execute', args: { command } }] })),
    { text: 'done' },
  ]);
  wb = await createWorkbench({ home: env.sb.home, workspace: ws, llm, interactive: false });
  const diagnostics: string[] = [];
  wb.subscribe((e) => {
    if (e.event === 'error') diagnostics.push(e.data.message);
  });
  await (
    await wb.chat.send({ text: 'go', approvalMode })
  ).finished;
  const last = llm.calls.at(-1)!.request.messages;
  return { told: last.filter((m) => m.role === 'tool').map((m) => String(m.content)), diagnostics };
}

describe("Claude Code's sandbox.filesystem settings", () => {
  it.skipIf(!bwrapUsable)(
    'denyRead hides a folder around the workspace, allowRead opens one inside it, allowWrite writes outside, denyWrite and a pattern hold in the workspace',
    async () => {
      // The folder holding the workspace is what the user hides.
      writeFiles(around, {
        'private/token': 'canary-private',
        'shared/readme': 'shared-ok',
        'outbox/.keep': '',
      });
      writeFiles(ws, {
        'docs/a.md': 'keep',
        'config/app.key': 'canary-key',
        'config/app.txt': 'app-ok',
      });
      writeSettings(join(env.claudeDir, 'settings.json'), {
        denyRead: [around],
        allowRead: [join(around, 'shared')],
        allowWrite: [`/${join(around, 'outbox')}`],
      });
      writeSettings(join(ws, '.claude', 'settings.json'), {
        denyWrite: ['docs'],
        denyRead: ['config/*.key'],
      });
      const show = (p: string) => `printf '[%s]' "$(cat ${p} 2>&1)"`;
      const { told, diagnostics } = await runCommands([
        [
          show(join(around, 'private', 'token')),
          show(join(around, 'shared', 'readme')),
          show('config/app.key'),
          show('config/app.txt'),
        ].join('; '),
        `echo sent > ${join(around, 'outbox', 'note.txt')} && echo mine > own.txt && cat own.txt; echo gone > docs/a.md`,
      ]);
      expect(diagnostics).toEqual([]);
      expect(told[0]).toMatch(
        /^\[cat: \S+\/private\/token: No such file or directory\]\[shared-ok\]\[cat: config\/app\.key: Permission denied\]\[app-ok\]/,
      );
      expect(told[0]).toContain('command sandboxed');
      expect(told[1]).toMatch(/^mine\n.*docs\/a\.md: Read-only file system/s);
      expect(readFileSync(join(around, 'outbox', 'note.txt'), 'utf8')).toBe('sent\n');
      expect(readFileSync(join(ws, 'own.txt'), 'utf8')).toBe('mine\n');
      expect(readFileSync(join(ws, 'docs', 'a.md'), 'utf8')).toBe('keep');
    },
  );

  it.skipIf(!bwrapUsable)(
    'sandbox.credentials.files hides a credential from commands, as at home',
    async () => {
      writeFiles(around, { 'creds/token': 'canary-token', 'creds/readme': 'readme-ok' });
      writeFileSync(
        join(env.claudeDir, 'settings.json'),
        JSON.stringify({
          sandbox: {
            credentials: { files: [{ path: join(around, 'creds', 'token'), mode: 'deny' }] },
          },
        }),
      );
      const { told, diagnostics } = await runCommands([
        `cat ${join(around, 'creds', 'token')}; cat ${join(around, 'creds', 'readme')}`,
      ]);
      expect(diagnostics).toEqual([]);
      expect(told[0]).not.toContain('canary-token');
      expect(told[0]).toMatch(
        /creds\/token: (No such file or directory|Permission denied)\nreadme-ok/,
      );
    },
  );

  it.skipIf(!bwrapUsable)(
    "an untrusted workspace cannot open paths, and its denyRead holds only inside it; a bad entry is said at the run's start",
    async () => {
      writeFiles(around, { 'outside.txt': 'outside-ok', 'drop/.keep': '' });
      writeFiles(ws, { 'secret.txt': 'canary' });
      const file = join(ws, '.claude', 'settings.json');
      writeSettings(file, {
        denyRead: ['secret.txt', join(around, 'outside.txt'), '~/**/*.pem'],
        allowWrite: [join(around, 'drop')],
      });
      const { told, diagnostics } = await runCommands([
        `cat secret.txt; cat ${join(around, 'outside.txt')}; echo x > ${join(around, 'drop', 'x')}`,
      ]);
      expect(told[0]).toMatch(
        /secret\.txt: Permission denied\noutside-ok.*drop\/x: Read-only file system/s,
      );
      expect(existsSync(join(around, 'drop', 'x'))).toBe(false);
      expect(diagnostics).toEqual([
        `${file}: sandbox.filesystem.denyRead: ~/**/*.pem is left out: a pattern with wildcards outside the workspace cannot be listed`,
      ]);
    },
  );
});

describe("Claude Code's permissions.blockReadsOutsideWorkingDirectories", () => {
  const realHome = process.env.HOME;
  let home: string;
  beforeEach(() => {
    // The user's home, a user folder the setting keeps commands out of, holds a note to keep.
    home = join(around, 'home');
    writeFiles(home, { 'notes/plan.txt': 'canary-plan' });
    writeFiles(ws, { 'readme.txt': 'readme-ok' });
    process.env.HOME = home;
  });
  afterEach(() => {
    process.env.HOME = realHome;
  });
  const block = () =>
    writeFileSync(
      join(env.claudeDir, 'settings.json'),
      JSON.stringify({ permissions: { blockReadsOutsideWorkingDirectories: true } }),
    );
  const command = () => `cat ${join(home, 'notes', 'plan.txt')}; cat readme.txt`;

  it.skipIf(!bwrapUsable)(
    'keeps sandboxed commands out of the user folders outside the working directories; without it they read there',
    async () => {
      const before = await runCommands([command()]);
      expect(before.told[0]).toMatch(/^canary-plan/);
      block();
      const { told, diagnostics } = await runCommands([command()]);
      expect(diagnostics).toEqual([]);
      expect(told[0]).not.toContain('canary-plan');
      expect(told[0]).toMatch(/plan\.txt: No such file or directory\nreadme-ok/);
      expect(told[0]).toContain('command sandboxed');
    },
  );

  it('has a person approve an unsandboxed command that reads there, and refuses it with nobody to ask', async () => {
    block();
    writeFileSync(
      join(env.sb.home, 'settings.json'),
      JSON.stringify({ sandbox: { mode: 'off', network: false } }),
    );
    const { told } = await runCommands([command(), 'cat readme.txt']);
    expect(told[0]).toMatch(
      /^Error: not run: this command reads \S+\/notes\/plan\.txt, outside the working directories \(permissions\.blockReadsOutsideWorkingDirectories in \S+settings\.json\)/,
    );
    expect(told[1]).toMatch(/^readme-ok/);
  });
});

describe("Claude Code's sandbox.network.allowedDomains", () => {
  it.skipIf(!bwrapUsable)(
    "a sandboxed command reaches an allowed host through the workbench's proxy and no other, nor this machine through a wildcard; the result names the host it was kept from",
    async () => {
      // A server of the host's, on an address the sandbox's own loopback does not answer.
      const server = http.createServer((_req, res) => res.end('hello from the host'));
      await new Promise<void>((r) => server.listen(0, '127.0.0.2', () => r()));
      const { port } = server.address() as AddressInfo;
      // And one on the host's loopback, as the workbench's own servers listen.
      const loopback = http.createServer((_req, res) => res.end('the host loopback'));
      await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', () => r()));
      const loopbackPort = (loopback.address() as AddressInfo).port;
      try {
        writeFileSync(
          join(env.claudeDir, 'settings.json'),
          JSON.stringify({
            permissions: { deny: ['WebFetch(domain:127.0.0.3)'] },
            sandbox: {
              network: {
                allowedDomains: ['127.0.0.2', '*.localhost', '127.0.0.3', 'b.example'],
                deniedDomains: ['b.example'],
              },
            },
          }),
        );
        const fetchLine = (url: string) =>
          `"${process.execPath}" -e "fetch('${url}').then((r) => r.text()).then((t) => console.log('[' + t + ']'), (e) => console.log('failed: ' + e.message))"`;
        const others = Array.from({ length: 11 }, (_, i) => `https://h${i + 1}.example.com/`);
        const { told } = await runCommands([
          `${fetchLine(`http://127.0.0.2:${port}/`)}; ${fetchLine('https://example.com/')}`,
          others.map(fetchLine).join('; '),
          // Past NO_PROXY, which keeps the sandbox's own loopback away from the proxy.
          `NO_PROXY= no_proxy= ${fetchLine(`http://localhost:${loopbackPort}/`)}`,
          `${fetchLine(`http://127.0.0.3:${port}/`)}; ${fetchLine('https://b.example/')}`,
        ]);
        expect(told[0]).toMatch(/^\[hello from the host\]\nfailed: fetch failed\n/);
        expect(told[0]).toContain(
          'the sandbox kept the command from example.com: not in sandbox.network.allowedDomains',
        );
        // Past ten hosts the result counts them.
        expect(told[1]).toContain(
          `the sandbox kept the command from ${others
            .slice(0, 10)
            .map((u) => new URL(u).hostname)
            .join(', ')} and 1 more: not in sandbox.network.allowedDomains`,
        );
        expect(told[0]).toContain(
          'command sandboxed (bubblewrap, network to 4 allowed domains only)',
        );
        // A wildcard never leads to the host's own loopback, where the workbench's servers listen.
        expect(told[2]).toMatch(/^failed: fetch failed\n/);
        expect(told[2]).toContain(
          'the sandbox kept the command from localhost: allowed by a wildcard but leading to this machine',
        );
        // What a deny list or a WebFetch deny rule names stays out, allowed or not.
        expect(told[3]).toMatch(/^failed: fetch failed\nfailed: fetch failed\n/);
        expect(told[3]).toContain(
          'the sandbox kept the command from 127.0.0.3, b.example: denied by sandbox.network.deniedDomains or a WebFetch(domain:…) deny rule',
        );
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
        await new Promise<void>((r) => loopback.close(() => r()));
      }
    },
  );
  it.skipIf(!bwrapUsable)(
    "an allowed host is reached through the proxy of the workbench's environment, whose credentials no command sees",
    async () => {
      const target = http.createServer((_req, res) => res.end('hello through the corporate proxy'));
      await new Promise<void>((r) => target.listen(0, '127.0.0.2', () => r()));
      const { port } = target.address() as AddressInfo;
      const asked: string[] = [];
      const corporate = http.createServer((_req, res) => res.writeHead(405).end());
      corporate.on('connect', (req: http.IncomingMessage, client: Socket) => {
        asked.push(`${req.url} ${req.headers['proxy-authorization']}`);
        const [host, to] = req.url!.split(':');
        const up = connect(Number(to), host, () => {
          client.write('HTTP/1.1 200 Connection established\r\n\r\n');
          up.pipe(client);
          client.pipe(up);
        });
        up.on('error', () => client.destroy());
      });
      await new Promise<void>((r) => corporate.listen(0, '127.0.0.1', () => r()));
      const proxyUrl = `http://me:s3cret@127.0.0.1:${(corporate.address() as AddressInfo).port}`;
      const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
      const saved = names.map((n) => process.env[n]);
      for (const n of names) process.env[n] = proxyUrl;
      try {
        writeFileSync(
          join(env.claudeDir, 'settings.json'),
          JSON.stringify({ sandbox: { network: { allowedDomains: ['127.0.0.2'] } } }),
        );
        const { told } = await runCommands([
          `"${process.execPath}" -e "fetch('http://127.0.0.2:${port}/').then((r) => r.text()).then((t) => console.log('[' + t + ']'), (e) => console.log('failed: ' + e.message))"; env | grep -ci s3cret`,
        ]);
        expect(told[0]).toMatch(/^\[hello through the corporate proxy\]\n0\n/);
        expect(asked).toEqual([
          `127.0.0.2:${port} Basic ${Buffer.from('me:s3cret').toString('base64')}`,
        ]);
      } finally {
        names.forEach((n, i) =>
          saved[i] === undefined ? delete process.env[n] : (process.env[n] = saved[i]),
        );
        corporate.closeAllConnections();
        await new Promise<void>((r) => corporate.close(() => r()));
        await new Promise<void>((r) => target.close(() => r()));
      }
    },
  );
});

const runWritable = (() => {
  try {
    accessSync('/run', constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

describe("Claude Code's sandbox.excludedCommands", () => {
  it.skipIf(!bwrapUsable)(
    'run outside the sandbox, as at home, only when every command in the line is excluded; auto-edit asks for them as for any unsandboxed command',
    async () => {
      writeFiles(around, { 'private/token': 'canary-private' });
      const file = join(env.claudeDir, 'settings.json');
      writeFileSync(
        file,
        JSON.stringify({
          sandbox: {
            excludedCommands: ['cat *'],
            filesystem: { denyRead: [join(around, 'private')] },
          },
        }),
      );
      const token = join(around, 'private', 'token');
      const { told, diagnostics } = await runCommands([`cat ${token}`, `cat ${token} | wc -c`]);
      expect(diagnostics).toEqual([]);
      expect(told[0]).toMatch(/^canary-private\n/);
      expect(told[0]).toContain(
        `command NOT sandboxed — excluded from it by sandbox.excludedCommands in ${file}`,
      );
      expect(told[1]).toMatch(/No such file or directory|Permission denied/);
      expect(told[1]).toContain('command sandboxed');
      await wb!.close();
      wb = undefined;
      const edits = await runCommands([`cat ${token}`, 'echo inside'], 'auto-edit');
      expect(edits.told[0]).toContain('the user did not allow execute');
      expect(edits.told[0]).not.toContain('canary-private');
      expect(edits.told[1]).toMatch(/^inside\n/);
    },
  );
});

describe("the host's Unix sockets", () => {
  it.skipIf(!bwrapUsable || !runWritable)(
    "are hidden from sandboxed commands (a read-only mount does not stop connect()); Claude Code's allowAllUnixSockets leaves them",
    async () => {
      // A daemon's socket under /run, as Docker's or the D-Bus system bus's.
      const dir = mkdtempSync('/run/wb-daemon-');
      const socketPath = join(dir, 'control.sock');
      const daemon = createServer((c) => c.end('daemon answered'));
      await new Promise<void>((r) => daemon.listen(socketPath, () => r()));
      try {
        // Python, as Node's binary may lie in a folder the sandbox does not show (a CI clone in /tmp).
        const connectLine = `python3 -c 'import socket; c = socket.socket(socket.AF_UNIX); r = c.connect_ex("${socketPath}"); print(c.recv(100).decode() if r == 0 else "refused: %d" % r)'`;
        const hidden = await runCommands([connectLine]);
        expect(hidden.told[0]).toMatch(/^refused: 111\n/); // ECONNREFUSED
        await wb?.close();
        wb = undefined;
        writeFileSync(
          join(env.claudeDir, 'settings.json'),
          JSON.stringify({ sandbox: { network: { allowAllUnixSockets: true } } }),
        );
        const left = await runCommands([connectLine]);
        expect(left.told[0]).toMatch(/^daemon answered/);
      } finally {
        await new Promise<void>((r) => daemon.close(() => r()));
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("workbench run and Claude Code's sandbox block", () => {
  let fake: FakeOpenAi | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it.skipIf(!bwrapUsable)(
    "workbench run's first line counts a workspace trusted earlier: its allowed domains are the run's",
    async () => {
      const { home, workspace } = await cliSandbox();
      mkdirSync(join(workspace, '.claude'));
      writeFileSync(
        join(workspace, '.claude', 'settings.json'),
        JSON.stringify({ sandbox: { network: { allowedDomains: ['pypi.org'] } } }),
      );
      fake = await startFakeOpenAi({ script: [{ text: 'ok' }, { text: 'ok' }] });
      const env = { home, workspace, baseURL: fake.baseURL };
      const before = await runCli(['run', 'hi'], env);
      expect(before.stderr.split('\n')[0]).toBe('commands: sandboxed (bubblewrap, no network)');
      expect((await runCli(['trust', workspace], env)).code).toBe(0);
      const after = await runCli(['run', 'hi'], env);
      expect(after.stderr.split('\n')[0]).toBe(
        'commands: sandboxed (bubblewrap, network to pypi.org only)',
      );
    },
  );

  it('on a machine without bubblewrap, workbench run refuses the command instead of running it unsandboxed, naming the file', async () => {
    const { home, workspace } = await cliSandbox();
    const settings = join(home, '.claude', 'settings.json');
    mkdirSync(join(settings, '..'));
    writeFileSync(
      settings,
      JSON.stringify({ sandbox: { enabled: true, failIfUnavailable: true } }),
    );
    // A PATH with the shell and git but no bwrap: the machine has no sandbox.
    const bin = join(home, 'bin');
    mkdirSync(bin);
    for (const tool of ['sh', 'bash', 'git', 'env'])
      symlinkSync(
        execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(),
        join(bin, tool),
      );
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'execute', args: { command: 'touch ran' } }] },
        { text: 'done' },
      ],
    });
    const r = await runCli(['run', '--auto', 'go'], {
      home,
      workspace,
      baseURL: fake.baseURL,
      extra: { PATH: bin },
    });
    expect(r.code).toBe(0);
    const refusal = `the sandbox is required by sandbox.failIfUnavailable in ${settings} but unavailable: bwrap not found; install bubblewrap`;
    expect(r.stderr.split('\n')[0]).toBe(`commands: refused — ${refusal}`);
    const told = fake
      .chatRequests()
      .at(-1)!
      .messages.filter((m) => m.role === 'tool');
    expect(told.map((m) => m.content)).toEqual([`Error: not run: ${refusal}`]);
    expect(existsSync(join(workspace, 'ran'))).toBe(false);
  });
});
