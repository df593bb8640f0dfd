/**
 * Starting points for a new executable hook (the hooks panel's "New hook"), modelled on the examples
 * of docs/hooks.md (test/fixtures/hook-zoo/executable/): an audit logger, a guardrail on `bash`, a follow-up.
 */
import type { ExecutableEvent } from './executable-events.ts';

export type HookTemplateId = 'audit-logger' | 'guardrail' | 'follow-up';

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
];

/** The template of `id`. Contract: throws for an unknown id. */
export function hookTemplate(id: HookTemplateId): HookTemplate {
  const t = HOOK_TEMPLATES.find((x) => x.id === id);
  if (!t) throw new Error(`unknown hook template ${id}`);
  return t;
}
