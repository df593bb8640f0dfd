import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { AgentFile, AgentListing } from '../../../shared/ipc/contract.ts';
import { errorMessage } from '../../../shared/error-message.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { PanelToolbar } from '../../components/PanelToolbar.tsx';
import { confirmDiscard } from '../../components/confirm-discard.ts';
import { profileTemplate } from './profile-template.ts';
import { AgentScriptEditor } from './AgentScriptEditor.tsx';
import { scriptDirty, useAgentScript } from './agent-script-store.ts';
import { useAgentsRevision } from './agents-revision.ts';
import '../../styles/panels.css';
import './agents.css';

const MonacoEditor = lazy(() => import('../../components/MonacoEditor.tsx'));

/** What the editor holds: an existing file, or a new profile not saved yet. */
interface Draft {
  path?: string;
  /** The profile's name as listed (or to be created). */
  name?: string;
  scope?: 'workspace' | 'user';
  content: string;
  version: string;
  /** What is on disk ('' for a new profile), for the unsaved-edits question. */
  original: string;
}

/**
 * The Agents tab (docs/agents.md): every profile with its source, inert ones marked; create and edit
 * a profile in Monaco, its frontmatter checked by the main process as you type, its script beside it.
 */
export function AgentsPanel() {
  const workspace = useWorkbenchStore((s) => s.workspace.path);
  const [listing, setListing] = useState<AgentListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [check, setCheck] = useState<{ diagnostics: string[]; script?: string }>({
    diagnostics: [],
  });
  const [newName, setNewName] = useState('');
  const [newScope, setNewScope] = useState<'workspace' | 'user'>('workspace');
  const [creating, setCreating] = useState(false);

  const load = useCallback(async () => {
    try {
      setListing(await call('agents.list', {}));
      setError(null);
      useAgentsRevision.getState().bump();
    } catch (err) {
      setError(errorMessage(err));
    }
  }, []);
  useEffect(() => void load(), [load, workspace]);

  // The main process validates the frontmatter exactly as a run would read it.
  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(() => {
      call('agents.validate', {
        content: draft.content,
        ...(draft.path ? { path: draft.path } : {}),
      }).then(setCheck, (err: unknown) => setCheck({ diagnostics: [errorMessage(err)] }));
    }, 250);
    return () => clearTimeout(timer);
  }, [draft]);

  const openFile = async (name: string, path: string) => {
    try {
      const file: AgentFile = await call('agents.read', { path });
      setCheck({ diagnostics: [] });
      setDraft({
        name,
        path: file.path,
        content: file.content,
        version: file.version,
        original: file.content,
      });
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const save = async () => {
    if (!draft) return;
    try {
      const r = await call('agents.save', {
        content: draft.content,
        baseVersion: draft.version,
        ...(draft.path ? { path: draft.path } : { name: draft.name, scope: draft.scope }),
      });
      if (r.status === 'conflict')
        setError(`${r.document.path} changed on disk; reopen it to see the new text`);
      else
        setDraft({
          name: draft.name,
          path: r.document.path,
          content: r.document.content,
          version: r.document.version,
          original: r.document.content,
        });
      await load();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const openScript = (name: string) => {
    if (confirmDiscard(scriptDirty(), 'the script')) void useAgentScript.getState().open(name);
  };
  const addScript = async (name: string) => {
    if (!draft || !confirmDiscard(draft.content !== draft.original, 'the profile')) return;
    if (!confirmDiscard(scriptDirty(), 'the script')) return;
    try {
      const r = await call('agents.createScript', { name });
      setDraft({
        name,
        path: r.profile.path,
        content: r.profile.content,
        version: r.profile.version,
        original: r.profile.content,
      });
      useAgentScript.getState().show(r.script);
      await load();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const draftName = draft?.name;

  return (
    <div className="panel dock-wide agents-layout" data-testid="agents-panel">
      <PanelToolbar
        onRefresh={() => void load()}
        newLabel="New agent"
        onNew={() => setCreating(true)}
        creating={creating}
        newTestId="new-agent"
        error={error}
      >
        <span className="muted">{listing ? `${listing.agents.length} agent(s)` : 'Loading…'}</span>
      </PanelToolbar>
      {creating && (
        <div className="agent-new" data-testid="new-agent-form">
          <input
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            placeholder="name, e.g. researcher"
            aria-label="Agent name"
            data-testid="new-agent-name"
          />
          <select
            value={newScope}
            onChange={(e) => setNewScope(e.target.value as 'workspace' | 'user')}
            aria-label="Where"
          >
            <option value="workspace">this workspace</option>
            <option value="user">all workspaces</option>
          </select>
          <button
            type="button"
            className="primary"
            disabled={!newName.trim()}
            data-testid="new-agent-create"
            onClick={() => {
              setCheck({ diagnostics: [] });
              setDraft({
                name: newName.trim(),
                scope: newScope,
                content: profileTemplate(newName.trim()),
                version: '',
                original: '',
              });
              setCreating(false);
              setNewName('');
            }}
          >
            Create
          </button>
          <button type="button" onClick={() => setCreating(false)}>
            Cancel
          </button>
        </div>
      )}
      {draft && (
        <section data-testid="agent-editor">
          <div className="panel-toolbar">
            <span className="mono small">
              {draft.path ?? `new: ${draft.name} (${draft.scope})`}
            </span>
            <span className="spacer" />
            <button
              type="button"
              className="primary"
              onClick={() => void save()}
              data-testid="agent-save"
            >
              Save
            </button>
            <button
              type="button"
              onClick={() =>
                confirmDiscard(draft.content !== draft.original, 'the profile') && setDraft(null)
              }
            >
              Close
            </button>
          </div>
          <Suspense fallback={<p className="muted">Loading editor…</p>}>
            <MonacoEditor
              value={draft.content}
              language="markdown"
              height={320}
              onChange={(content) => setDraft((d) => (d ? { ...d, content } : d))}
            />
          </Suspense>
          {check.script ? (
            <p className="agent-script muted" data-testid="agent-script">
              script: <span className="mono">{check.script}</span>{' '}
              {draftName && draft.content === draft.original && (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => openScript(draftName)}
                  data-testid="agent-script-open"
                >
                  Edit script
                </button>
              )}
            </p>
          ) : (
            draft.path &&
            draftName && (
              <p className="agent-script muted">
                No script.{' '}
                <button
                  type="button"
                  onClick={() => void addScript(draftName)}
                  data-testid="agent-script-add"
                  title={`Creates ${draftName}.hooks.ts next to the profile and names it in script:`}
                >
                  Add script
                </button>
              </p>
            )
          )}
          <ul className="problems" data-testid="agent-problems">
            {check.diagnostics.map((d) => (
              <li key={d} className="warn-text">
                ! {d}
              </li>
            ))}
          </ul>
        </section>
      )}
      <AgentScriptEditor />
      <ul className="card-list" data-testid="agent-list">
        {listing?.agents.map((a) => (
          <li
            key={a.name}
            className={`card${a.inert ? ' off' : ''}`}
            data-testid="agent-row"
            data-name={a.name}
          >
            <div className="row-head">
              {a.name === 'main' ? (
                <span className="name">{a.name}</span>
              ) : (
                <button
                  type="button"
                  className="link-button name"
                  onClick={() => void openFile(a.name, a.path)}
                  data-testid="agent-open"
                >
                  {a.name}
                </button>
              )}
              <span className="badge">{a.source}</span>
              {a.inert && (
                <span
                  className="badge warn-text"
                  title="A workspace profile: runs once the workspace is trusted"
                >
                  inert
                </span>
              )}
              {a.model && <span className="muted small">{a.model}</span>}
            </div>
            <div className="muted small">{a.description || '(no description)'}</div>
            {a.tools && <div className="muted small">tools: {a.tools.join(', ')}</div>}
            {a.script && (
              <div className="muted small mono">
                script: {a.script}{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => openScript(a.name)}
                  data-testid="agent-row-script"
                >
                  Edit script
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {listing && listing.diagnostics.length > 0 && (
        <section data-testid="agents-diagnostics">
          <h3 className="section-title">Problems</h3>
          <ul className="problems">
            {listing.diagnostics.map((d) => (
              <li key={d} className="warn-text">
                ! {d}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
