import { useState } from 'react';
import type { SkillView } from '../../../shared/ipc/contract.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { confirmDiscard } from '../../components/confirm-discard.ts';

/** One skill: name, source, description, folder, on/off, edit and delete (after confirmation). */
export function SkillRow({ skill, selected }: { skill: SkillView; selected: boolean }) {
  const open = useWorkbenchStore((s) => s.openSkill);
  const setEnabled = useWorkbenchStore((s) => s.setSkillEnabled);
  const remove = useWorkbenchStore((s) => s.deleteSkill);
  const [confirming, setConfirming] = useState(false);
  return (
    <li
      className={`card skill${selected ? ' selected' : ''}${skill.enabled ? '' : ' off'}`}
      data-testid="skill-row"
      data-name={skill.name}
    >
      <div className="row-head">
        <label
          className="switch"
          title={skill.enabled ? 'Offered to the agent' : 'Not offered to the agent'}
        >
          <input
            type="checkbox"
            checked={skill.enabled}
            onChange={(e) => void setEnabled(skill.name, e.target.checked)}
            aria-label={`Enable ${skill.name}`}
            data-testid="skill-enabled"
          />
        </label>
        <button
          type="button"
          className="link-button name"
          onClick={() => {
            const e = useWorkbenchStore.getState().skillEditor;
            if (e?.file.path === skill.path) return;
            if (confirmDiscard(Boolean(e && e.draft !== e.file.content), 'the open skill'))
              void open(skill.path);
          }}
          data-testid="skill-open"
        >
          {skill.name}
        </button>
        <span className="badge">{skill.source}</span>
        {skill.modelInvocable ? null : (
          <span
            className="badge"
            title="disable-model-invocation: not in the model's catalog; ask for it by name"
            data-testid="skill-user-only"
          >
            user-invocable only
          </span>
        )}
        {skill.allowedTools ? (
          <span
            className="badge"
            title={`allowed-tools: ${skill.allowedTools.join(', ')} — not enforced yet: the skill runs with every tool the agent has`}
            data-testid="skill-allowed-tools"
          >
            allowed-tools not enforced
          </span>
        ) : null}
        <span className="spacer" />
        {confirming ? (
          <span className="inline">
            <button
              type="button"
              className="danger"
              onClick={() => void remove(skill.path)}
              data-testid="skill-delete-confirm"
            >
              Delete folder
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="icon-button"
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${skill.name}`}
            data-testid="skill-delete"
          >
            Delete
          </button>
        )}
      </div>
      <p className="desc">{skill.description}</p>
      <p className="mono small muted" title={skill.dir}>
        {skill.dir}
      </p>
      {confirming && <p className="warning small">Deletes {skill.dir} and everything in it.</p>}
    </li>
  );
}
