import { FormActions } from '../../components/FormActions.tsx';
import { useState, type FormEvent } from 'react';
import type { HookTemplateId } from '../../../shared/ipc/contract.ts';
import { useWorkbenchStore } from '../../stores/store.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A new executable hook from a template, in the workspace or the user hooks folder (made executable). */
export function NewHookForm({ onDone }: { onDone(): void }) {
  const templates = useWorkbenchStore((s) => s.hookListing?.templates) ?? [];
  const create = useWorkbenchStore((s) => s.createHook);
  const [template, setTemplate] = useState<HookTemplateId>('audit-logger');
  const [name, setName] = useState('audit_logger');
  const [scope, setScope] = useState<'workspace' | 'user'>('workspace');
  const valid = NAME.test(name) && !name.endsWith('.disable');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (valid && (await create(scope, name, template))) onDone();
  };
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} data-testid="new-hook-form">
      <label>
        Template
        <select
          value={template}
          onChange={(e) => {
            const id = e.target.value as HookTemplateId;
            setTemplate(id);
            setName(id.replace(/-/g, '_'));
          }}
          aria-label="Hook template"
          data-testid="new-hook-template"
        >
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        File name
        <input
          value={name}
          onChange={(e) => setName(e.target.value.trim())}
          aria-label="Hook file name"
          data-testid="new-hook-name"
        />
      </label>
      {name && !valid && <p className="error-text">Letters, digits, dot, dash and underscore.</p>}
      <label>
        Where
        <select
          value={scope}
          onChange={(e) => setScope(e.target.value as 'workspace' | 'user')}
          aria-label="Hook location"
          data-testid="new-hook-scope"
        >
          <option value="workspace">This workspace (.workbench/hooks — needs trust)</option>
          <option value="user">All workspaces (~/.workbench/hooks)</option>
        </select>
      </label>
      <FormActions valid={valid} onCancel={onDone} createTestId="new-hook-create" />
    </form>
  );
}
