import { useEffect, useState } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';
import { NewSkillForm } from './NewSkillForm.tsx';
import { SkillEditorPane } from './SkillEditorPane.tsx';
import { SkillRow } from './SkillRow.tsx';
import { PanelToolbar } from '../../components/PanelToolbar.tsx';
import '../../styles/panels.css';

/** The Skills tab: every skill from every source with its problems; create, edit, switch off, delete. */
export function SkillsPanel() {
  const listing = useWorkbenchStore((s) => s.skillListing);
  const load = useWorkbenchStore((s) => s.loadSkills);
  const error = useWorkbenchStore((s) => s.skillsError);
  const openPath = useWorkbenchStore((s) => s.skillEditor?.file.path);
  const [creating, setCreating] = useState(false);
  const workspace = useWorkbenchStore((s) => s.workspace.path);
  useEffect(() => void load(), [load, workspace]);
  return (
    <div className="panel dock-wide" data-testid="skills-panel">
      <PanelToolbar
        onRefresh={() => void load()}
        newLabel="New skill"
        onNew={() => setCreating(true)}
        creating={creating}
        newTestId="new-skill"
        error={error}
      >
        <span className="muted">
          {listing
            ? `${listing.skills.length} skill(s) · ${listing.skills.filter((s) => s.enabled).length} offered to the agent`
            : 'Loading…'}
        </span>
      </PanelToolbar>
      {creating && <NewSkillForm onDone={() => setCreating(false)} />}
      <SkillEditorPane />
      {listing && listing.skills.length === 0 && (
        <p className="muted" data-testid="skills-empty">
          No skills yet. A skill is a folder with a SKILL.md in{' '}
          {listing.roots.map((r) => r.dir).join(', ')}.
        </p>
      )}
      <ul className="card-list" data-testid="skill-list">
        {listing?.skills.map((s) => (
          <SkillRow key={s.path} skill={s} selected={s.path === openPath} />
        ))}
      </ul>
      {listing && listing.diagnostics.length > 0 && (
        <section data-testid="skill-diagnostics">
          <h3 className="section-title">Problems</h3>
          <ul className="problems">
            {listing.diagnostics.map((d) => (
              <li
                key={`${d.path}:${d.message}`}
                className={d.severity === 'error' ? 'error-text' : 'warn-text'}
              >
                {d.severity === 'error' ? '✕' : '!'} <span className="mono small">{d.path}</span>:{' '}
                {d.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
