import { useState } from 'react';
import type { HookInfo } from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { hookState } from './hook-state.ts';
import { HookTestPane } from './HookTestPane.tsx';
import { HookHealthDots } from './HookHealthDots.tsx';
import { HookReplayPane } from './HookReplayPane.tsx';
import { useHookScript } from './hook-script-store.ts';
import { confirmDiscard } from '../../components/confirm-discard.ts';

/** One hook of the pipeline: state, health, switch, details, fail mode and timeout, Test, Replay. */
export function HookRow({
  hook,
  index,
  allOff,
}: {
  hook: HookInfo;
  index: number;
  allOff: boolean;
}) {
  const setEnabled = useWorkbenchStore((s) => s.setHookEnabled);
  const update = useWorkbenchStore((s) => s.updateHook);
  const openTest = useWorkbenchStore((s) => s.openHookTest);
  const testing = useWorkbenchStore((s) => s.hookTest?.id === hook.id);
  const replay = useWorkbenchStore((s) => s.replayHook);
  const replaying = useWorkbenchStore((s) => s.hookReplay?.id === hook.id);
  const [open, setOpen] = useState(false);
  const openScript = () => {
    const e = useHookScript.getState().editor;
    if (e?.id === hook.id) return;
    if (confirmDiscard(Boolean(e && e.draft !== e.content), 'the open hook script'))
      void useHookScript.getState().open(hook.id);
  };
  const [timeout, setTimeoutMs] = useState(String(hook.timeout_ms ?? ''));
  const state = hookState(hook, allOff);
  const user = hook.dialect !== 'builtin';
  // A script hook runs inside a run only (no Test or Replay) and always fails open.
  const script = hook.dialect === 'script';
  const locked = hook.id === 'builtin:approval';
  return (
    <li
      className={`card hook state-${state}${hook.dialect === 'builtin' ? ' builtin' : ''}`}
      data-testid="hook-row"
      data-id={hook.id}
      data-state={state}
    >
      <div className="row-head">
        <span className="order muted">{index + 1}</span>
        <label
          className="switch"
          title={locked ? 'A safety policy: use approval mode "auto" instead' : state}
        >
          <input
            type="checkbox"
            checked={hook.enabled}
            disabled={locked}
            onChange={(e) => void setEnabled(hook.id, e.target.checked)}
            aria-label={`Enable ${hook.name}`}
            data-testid="hook-enabled"
          />
        </label>
        <button
          type="button"
          className="link-button name"
          onClick={() => setOpen(!open)}
          aria-expanded={open}
          data-testid="hook-name"
        >
          {hook.name}
        </button>
        <span className={`badge state ${state}`} data-testid="hook-state">
          {state}
        </span>
        {hook.dialect === 'builtin' && <span className="badge">built-in</span>}
        <HookHealthDots health={hook.health} />
        <span className="spacer" />
        {hook.dialect === 'executable' && hook.path && (
          <button
            type="button"
            className="icon-button"
            onClick={openScript}
            title={`Edit ${hook.path}`}
            data-testid="hook-edit-script"
          >
            Edit
          </button>
        )}
        {user && !script && (
          <button
            type="button"
            className="icon-button"
            onClick={() => void openTest(testing ? null : hook.id)}
            disabled={!hook.trusted}
            data-testid="hook-test-open"
          >
            Test
          </button>
        )}
        {user && !script && (
          <button
            type="button"
            className="icon-button"
            onClick={() => void replay(replaying ? null : hook.id)}
            disabled={!hook.trusted}
            title="Run this hook on the recorded tool calls of recent threads (dry run)"
            data-testid="hook-replay-open"
          >
            Replay
          </button>
        )}
      </div>
      {hook.dialect === 'builtin' ? (
        <p className="meta small muted" title={hook.events.join(', ')}>
          {hook.command}
        </p>
      ) : (
        <div className="meta small">
          <span className="badge">{hook.source}</span>
          <span className="badge">{hook.dialect}</span>
          {hook.sandboxed && (
            <span className="badge" data-testid="hook-sandboxed">
              sandboxed
            </span>
          )}
          <span className="mono">
            {hook.events.join(', ') ||
              (hook.trusted ? 'event unknown' : 'event unknown until trusted')}
          </span>
          {hook.matcher !== undefined && <span className="mono">[{hook.matcher || '*'}]</span>}
          {hook.condition && (
            <span className="mono" data-testid="hook-condition">
              if {hook.condition}
            </span>
          )}
          {hook.agent && (
            <span className="badge" data-testid="hook-agent" title="Runs only in this agent's runs">
              agent {hook.agent}
            </span>
          )}
          {hook.skill && (
            <span
              className="badge"
              data-testid="hook-skill"
              title={`Runs once the skill was read in a thread${hook.once ? ', at most once in it' : ''}`}
            >
              skill {hook.skill}
              {hook.once ? ' · once' : ''}
            </span>
          )}
        </div>
      )}
      {hook.problem && (
        <p
          className={`small ${hook.trusted ? 'error-text' : 'warn-text'}`}
          data-testid="hook-problem"
        >
          {hook.problem}
        </p>
      )}
      {open && (
        <div className="hook-details">
          {hook.path && (
            <p className="mono small" title={hook.path}>
              {hook.path}
            </p>
          )}
          {hook.dialect === 'builtin' && <p className="mono small">{hook.events.join(', ')}</p>}
          {hook.command && hook.dialect !== 'builtin' && (
            <p className="mono small">{hook.command}</p>
          )}
          {user && (
            <div className="inline small">
              {!script && (
                <label className="inline">
                  Failure
                  <select
                    value={hook.fail_mode ?? 'open'}
                    onChange={(e) =>
                      void update(hook.id, { failMode: e.target.value as 'open' | 'closed' })
                    }
                    aria-label="Fail mode"
                    data-testid="hook-fail-mode"
                  >
                    <option value="open">fail open (ignore)</option>
                    <option value="closed">fail closed (block)</option>
                  </select>
                </label>
              )}
              <label className="inline">
                Timeout ms
                <input
                  className="timeout"
                  inputMode="numeric"
                  value={timeout}
                  onChange={(e) => setTimeoutMs(e.target.value.replace(/\D/g, ''))}
                  aria-label="Timeout in milliseconds"
                  data-testid="hook-timeout"
                />
              </label>
              <button
                type="button"
                disabled={!timeout || Number(timeout) === hook.timeout_ms || Number(timeout) < 100}
                onClick={() => void update(hook.id, { timeoutMs: Number(timeout) })}
              >
                Set
              </button>
            </div>
          )}
        </div>
      )}
      {testing && <HookTestPane dialect={hook.dialect} />}
      {replaying && <HookReplayPane />}
    </li>
  );
}
