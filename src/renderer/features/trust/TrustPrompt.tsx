import { useState } from 'react';
import type { TrustItem } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { errorMessage } from '../../../shared/error-message.ts';

const KIND: Record<TrustItem['kind'], string> = {
  agents_md: 'AGENTS.md instructions (added to every prompt)',
  hooks: 'Hook programs (run on your machine)',
  claude_settings: 'Claude Code settings hooks (run on your machine)',
  workbench_settings: 'Workbench settings hooks (run on your machine)',
  skills: 'Skills (offered to the model)',
  system_prompt: 'A system prompt in agent.yaml (used only if you trust it)',
  memory_paths: 'Extra memory files named in agent.yaml (read only if you trust it)',
  skills_paths: 'Extra skill folders named in agent.yaml (read only if you trust it)',
  mcp_servers: 'MCP servers in .mcp.json (programs started on your machine, only if you trust it)',
  http_tools: 'HTTP tools in agent.yaml (offered only if you trust it)',
  frontmatter_hooks: "Hooks in the workspace's skills and agents (run on your machine)",
};

/** Shown the first time a folder bringing hooks, skills or AGENTS.md is opened. */
export function TrustPrompt() {
  const prompt = useWorkbenchStore((s) => s.trustPrompt);
  const close = useWorkbenchStore((s) => s.setTrustPrompt);
  const [note, setNote] = useState('');
  if (!prompt) return null;
  const answer = async (trusted: boolean) => {
    try {
      await call('trust.set', { workspace: prompt.workspace, trusted });
      close(null);
    } catch (err) {
      setNote(errorMessage(err));
    }
  };
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="trust-title" data-testid="trust-prompt">
        <h2 id="trust-title">Trust this folder?</h2>
        <p className="mono">{prompt.workspace}</p>
        <p>It brings:</p>
        <ul>
          {prompt.items.map((i) => (
            <li key={`${i.kind}:${i.path}`}>
              {KIND[i.kind]} — <code>{i.path}</code>
              {i.detail && <pre className="mono">{i.detail}</pre>}
            </li>
          ))}
        </ul>
        <p className="hint">Hooks from this folder run only if you trust it. AGENTS.md and skills inside the folder only add text to prompts and load either way; agent.yaml&apos;s system prompt and paths apply only with trust.</p>
        {note && <p className="warning">{note}</p>}
        <div className="inline">
          <button type="button" className="primary" onClick={() => void answer(true)}>
            Trust and run its hooks
          </button>
          <button type="button" onClick={() => close(null)}>
            Don&apos;t trust
          </button>
        </div>
      </div>
    </div>
  );
}
