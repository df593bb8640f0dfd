/**
 * A Claude Code http hook through the real CLI: the launcher keeps secret-looking variables out of
 * the CLI's environment, yet the token a hook's header names still reaches the policy server, and
 * the model's key never does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { events, runCli, sandbox } from '../../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
let closeServer: (() => void) | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  closeServer?.();
});

describe('workbench run with a Claude Code http hook', () => {
  it("sends the listed token the launcher handed over, never the model's key, and blocks on the server's deny", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(req.headers);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'deny',
              permissionDecisionReason: 'commands are reviewed first',
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeServer = () => server.close();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pre`;

    const env = await sandbox();
    mkdirSync(join(env.home, '.claude'), { recursive: true });
    writeFileSync(
      join(env.home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'http',
                  url,
                  headers: {
                    Authorization: 'Bearer $POLICY_TOKEN',
                    'X-Model-Key': '$OPENAI_API_KEY',
                  },
                  allowedEnvVars: ['POLICY_TOKEN', 'OPENAI_API_KEY'],
                },
              ],
            },
          ],
        },
      }),
    );
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'execute', args: { command: 'echo hi' } }] },
        { text: 'done' },
      ],
    });
    const r = await runCli(['run', '--auto', '--json', 'say hi'], {
      ...env,
      baseURL: fake.baseURL,
      extra: { POLICY_TOKEN: 'policy-tok-77' },
    });
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.authorization).toBe('Bearer policy-tok-77');
    expect(seen[0]!['x-model-key']).toBe('');
    const end = events(r.stdout).find((e) => e.event === 'on_tool_end');
    expect(end?.event === 'on_tool_end' && end.data.error).toBe(
      `blocked by hook 127.0.0.1:${(server.address() as AddressInfo).port}/pre: commands are reviewed first`,
    );
  });
});
