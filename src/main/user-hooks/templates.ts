/**
 * Starting points for a new executable hook (the hooks panel's "New hook"), modelled on the examples
 * of docs/hooks.md (test/fixtures/hook-zoo/executable/): an audit logger, a guardrail on `bash`, a follow-up,
 * and persistent hooks in shell, Python and Node (docs/hooks.md#persistent-hooks), which also answer
 * `run` so `workbench hooks test` and replay can call them once.
 */
import type { ExecutableEvent } from './executable-events.ts';

export type HookTemplateId =
  | 'audit-logger'
  | 'guardrail'
  | 'follow-up'
  | 'persistent-shell'
  | 'persistent-python'
  | 'persistent-node';

export interface HookTemplate {
  id: HookTemplateId;
  label: string;
  event: ExecutableEvent;
  /** The executable's text; `auditLog` is where the audit logger appends (hooks get no WORKBENCH_HOME). */
  render(o: { auditLog: string }): string;
}

const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Every template, in the order the panel offers them. */
export const HOOK_TEMPLATES: readonly HookTemplate[] = [
  {
    id: 'audit-logger',
    label: 'Audit logger (after_tool_call)',
    event: 'after_tool_call',
    render: ({ auditLog }) => `#!/bin/bash
# Logs every tool call and changes nothing.
if [ "$1" == "hook" ]; then
    echo "after_tool_call"
    exit 0
fi
if [ "$1" == "run" ]; then
    payload=$(cat)
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) | $payload" >> ${shellQuote(auditLog)}
    exit 0   # empty output = no modification
fi
exit 1
`,
  },
  {
    id: 'guardrail',
    label: 'Guardrail on bash (before_tool_call)',
    event: 'before_tool_call',
    render: () => `#!/usr/bin/env python3
# Blocks dangerous shell commands before the shell tool (bash, as hooks see it) runs them.
import sys
import json

BLOCKED_COMMANDS = ["rm -rf", "sudo", "curl | bash", "wget | sh"]

if len(sys.argv) < 2:
    sys.exit(1)

if sys.argv[1] == "hook":
    print("before_tool_call")
    sys.exit(0)

if sys.argv[1] == "run":
    payload = json.load(sys.stdin)
    if payload.get("tool_name") == "bash":
        command = payload.get("tool_input", {}).get("command", "")
        for blocked in BLOCKED_COMMANDS:
            if blocked in command:
                print(json.dumps({"blocked": True, "reason": f"Security policy: '{blocked}' is not allowed"}))
                sys.exit(0)
    print(json.dumps({"blocked": False}))
    sys.exit(0)

sys.exit(1)
`,
  },
  {
    id: 'follow-up',
    label: 'Follow-up (agent_stop)',
    event: 'agent_stop',
    render: () => `#!/bin/bash
# Keeps the agent working until foo.txt is gone.
case "$1" in
    hook) echo "agent_stop" ;;
    run)
        if [ -f "./foo.txt" ]; then
            echo '{"follow_up_messages":["I noticed foo.txt exists. Please remove it."]}'
        fi
        ;;
    *) exit 1 ;;
esac
`,
  },
  {
    id: 'persistent-shell',
    label: 'Persistent audit logger in shell (after_tool_call)',
    event: 'after_tool_call',
    render: ({ auditLog }) => `#!/bin/bash
# A persistent hook: started once as \`serve\`, it answers every call as one JSON line.
log=${shellQuote(auditLog)}
case "$1" in
    hook) echo '{"event":"after_tool_call","persistent":true}' ;;
    run) echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) | $(cat)" >> "$log" ;;
    serve)
        # Each line is {"id":N,"event":"…","payload":{…}}; the id always comes first.
        while IFS= read -r line; do
            id=\${line#'{"id":'}
            id=\${id%%,*}
            printf '%s | %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$line" >> "$log"
            printf '{"id":%s,"result":null}\\n' "$id"   # null = no modification
        done
        ;;
    *) exit 1 ;;
esac
`,
  },
  {
    id: 'persistent-python',
    label: 'Persistent guardrail in Python (before_tool_call)',
    event: 'before_tool_call',
    render: () => `#!/usr/bin/env python3
# A persistent hook: started once as \`serve\`, it answers every call as one JSON line.
import json
import sys

BLOCKED_COMMANDS = ["rm -rf", "sudo", "curl | bash", "wget | sh"]


def decide(payload):
    if payload.get("tool_name") == "bash":
        command = payload.get("tool_input", {}).get("command", "")
        for blocked in BLOCKED_COMMANDS:
            if blocked in command:
                return {"blocked": True, "reason": f"Security policy: '{blocked}' is not allowed"}
    return {"blocked": False}


if len(sys.argv) < 2:
    sys.exit(1)
if sys.argv[1] == "hook":
    print(json.dumps({"event": "before_tool_call", "persistent": True}))
elif sys.argv[1] == "run":
    print(json.dumps(decide(json.load(sys.stdin))))
elif sys.argv[1] == "serve":
    for line in sys.stdin:
        call = json.loads(line)
        print(json.dumps({"id": call["id"], "result": decide(call["payload"])}), flush=True)
else:
    sys.exit(1)
`,
  },
  {
    id: 'persistent-node',
    label: 'Persistent guardrail in Node (before_tool_call)',
    event: 'before_tool_call',
    render: () => `#!/usr/bin/env node
// A persistent hook: started once as \`serve\`, it answers every call as one JSON line.
const BLOCKED_COMMANDS = ['rm -rf', 'sudo', 'curl | bash', 'wget | sh'];

function decide(payload) {
  const command = payload.tool_name === 'bash' ? (payload.tool_input?.command ?? '') : '';
  const hit = BLOCKED_COMMANDS.find((b) => command.includes(b));
  return hit ? { blocked: true, reason: \`Security policy: '\${hit}' is not allowed\` } : { blocked: false };
}

const mode = process.argv[2];
if (mode === 'hook') {
  console.log(JSON.stringify({ event: 'before_tool_call', persistent: true }));
} else if (mode === 'run') {
  let input = '';
  process.stdin.on('data', (d) => (input += d));
  process.stdin.on('end', () => console.log(JSON.stringify(decide(JSON.parse(input)))));
} else if (mode === 'serve') {
  // A dynamic import works whether Node loads this file as CommonJS or as an ES module.
  import('node:readline').then(({ createInterface }) =>
    createInterface({ input: process.stdin }).on('line', (line) => {
      const { id, payload } = JSON.parse(line);
      process.stdout.write(JSON.stringify({ id, result: decide(payload) }) + '\\n');
    }),
  );
} else {
  process.exit(1);
}
`,
  },
];

/** The template of `id`. Contract: throws for an unknown id. */
export function hookTemplate(id: HookTemplateId): HookTemplate {
  const t = HOOK_TEMPLATES.find((x) => x.id === id);
  if (!t) throw new Error(`unknown hook template ${id}`);
  return t;
}
