import { useEffect, useState } from 'react';
import type { AgentView } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { useAgentsRevision } from './agents-revision.ts';

/** The agents the composer may pick: runnable profiles of the current workspace. */
function useRunnableAgents(): AgentView[] {
  const workspace = useWorkbenchStore((s) => s.workspace.path);
  const rev = useAgentsRevision((s) => s.rev);
  const [agents, setAgents] = useState<AgentView[]>([]);
  useEffect(() => {
    let live = true;
    call('agents.list', {}).then(
      (l) => live && setAgents(l.agents.filter((a) => !a.inert)),
      () => live && setAgents([]),
    );
    return () => {
      live = false;
    };
  }, [workspace, rev]);
  return agents;
}

/**
 * The composer's agent picker (docs/agents.md): shows the thread's agent and lets the next message
 * run another; hidden while only `main` exists.
 */
export function AgentPicker({
  value,
  onChange,
}: {
  value: string;
  onChange: (agent: string) => void;
}) {
  const agents = useRunnableAgents();
  if (agents.length < 2) return null;
  return (
    <select
      className="agent-picker"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label="Agent"
      data-testid="agent-picker"
      title={agents.find((a) => a.name === value)?.description}
    >
      {agents.map((a) => (
        <option key={a.name} value={a.name}>
          {a.name}
        </option>
      ))}
    </select>
  );
}

/** The agent of the active thread (as loaded, else from the thread list), `main` for a new thread. */
export function useThreadAgent(): string {
  return useWorkbenchStore((s) => {
    const id = s.activeThreadId;
    if (!id) return 'main';
    return s.chat.threads[id]?.agent ?? s.threads.find((t) => t.thread_id === id)?.agent ?? 'main';
  });
}
