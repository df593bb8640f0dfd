import { FormActions } from '../../components/FormActions.tsx';
import { useState, type FormEvent } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Creates a skill folder with a SKILL.md template in the workspace or the user folder. */
export function NewSkillForm({ onDone }: { onDone(): void }) {
  const create = useWorkbenchStore((s) => s.createSkill);
  const [scope, setScope] = useState<'workspace' | 'user'>('workspace');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const valid = NAME.test(name) && name.length <= 64;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (valid && (await create(scope, name, description))) onDone();
  };
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} data-testid="new-skill-form">
      <label>
        Name
        <input
          value={name}
          onChange={(e) => setName(e.target.value.trim())}
          placeholder="csv-analyzer"
          aria-label="Skill name"
          autoFocus
          data-testid="new-skill-name"
        />
      </label>
      {name && !valid && (
        <p className="error-text">Lowercase letters, digits and single hyphens.</p>
      )}
      <label>
        Description
        <input
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="What it does and when to use it"
          aria-label="Skill description"
          data-testid="new-skill-description"
        />
      </label>
      <label>
        Where
        <select
          value={scope}
          onChange={(e) => setScope(e.target.value as 'workspace' | 'user')}
          aria-label="Skill location"
          data-testid="new-skill-scope"
        >
          <option value="workspace">This workspace (.workbench/skills)</option>
          <option value="user">All workspaces (~/.workbench/skills)</option>
        </select>
      </label>
      <FormActions valid={valid} onCancel={onDone} createTestId="new-skill-create" />
    </form>
  );
}
