import { describe, expect, it } from 'vitest';
import { outsidePrograms, programFiles } from '../../../src/main/tools/program-files.ts';
import { alwaysAskReason } from '../../../src/main/tools/risk.ts';
import { createExecuteTool } from '../../../src/main/tools/index.ts';

const vars = { home: '/home/u', workspace: '/ws' };
const shell = (command: string) => programFiles({ command, shell: true, cwd: '/ws' }, vars);

describe('the files a configured hook or server runs', () => {
  it.each([
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', ['/ws/.claude/hooks/check.sh']],
    ['${CLAUDE_PROJECT_DIR}/scripts/guard.sh --strict', ['/ws/scripts/guard.sh']],
    ['python3 tools/hook.py --flag', ['/ws/tools/hook.py']],
    ['cd "$CLAUDE_PROJECT_DIR" && ./scripts/lint.sh | tee out.log', ['/ws/scripts/lint.sh']],
    ['timeout 5 node "$WORKBENCH_PROJECT_DIR/hooks/a.mjs"', ['/ws/hooks/a.mjs']],
    ['~/bin/guard', ['/home/u/bin/guard']],
    ['$HOME/.claude/hooks/x.sh', ['/home/u/.claude/hooks/x.sh']],
    ['deno run -A ./h.ts', ['/ws/h.ts']],
    ['uv run scripts/check.py', ['/ws/scripts/check.py']],
    ['bash -c \'cd "$CLAUDE_PROJECT_DIR" && ./hooks/lint.sh\'', ['/ws/hooks/lint.sh']],
    ['sh -c "python3 $CLAUDE_PROJECT_DIR/tools/a.py"', ['/ws/tools/a.py']],
  ])('%s', (command, files) => {
    expect(shell(command)).toEqual(files);
  });

  it.each([
    'jq -r .tool_input.command',
    'python3 -c "print(1)"',
    'python3 -m mypkg.hook',
    '$(echo /tmp)/x.sh',
    '"${PROJECT:-/ws}"/x.sh',
    'not valid (( bash',
  ])('%s names none', (command) => {
    expect(shell(command)).toEqual([]);
  });

  it("reads an MCP server's program and its script from the exec form", () => {
    expect(
      programFiles({ command: 'node', args: ['server/index.js'], shell: false, cwd: '/ws' }, vars),
    ).toEqual(['/ws/server/index.js']);
    expect(
      programFiles(
        { command: './bin/server', args: ['--port', '1'], shell: false, cwd: '/ws' },
        vars,
      ),
    ).toEqual(['/ws/bin/server']);
    expect(
      programFiles({ command: 'npx', args: ['-y', 'some-server'], shell: false, cwd: '/ws' }, vars),
    ).toEqual([]);
  });

  it('keeps the first reason for a file two processes run', () => {
    const proc = { command: './x.sh', shell: true, cwd: '/ws' };
    expect(
      outsidePrograms(
        [
          { proc, why: 'first' },
          { proc, why: 'second' },
        ],
        vars,
      ),
    ).toEqual([{ path: '/ws/x.sh', why: 'first' }]);
  });

  it('makes an unsandboxed command that writes one need a person', () => {
    const programs = [
      {
        path: '/ws/scripts/guard.sh',
        why: 'is run outside the sandbox by a PreToolUse hook (.claude/settings.json)',
      },
    ];
    const run = (command: string) =>
      alwaysAskReason(createExecuteTool(), { command }, '/ws', { programs });
    expect(run('echo x > scripts/guard.sh')).toMatch(
      /touches scripts\/guard\.sh, which is run outside the sandbox by a PreToolUse hook/,
    );
    expect(run('echo x > scripts/other.sh')).toBeUndefined();
  });
});
