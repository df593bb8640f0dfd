import type { ApprovalMode } from '../../../shared/types/index.ts';

const MODES: Array<{ id: ApprovalMode; label: string }> = [
  { id: 'ask', label: 'Ask before writes and commands' },
  { id: 'auto-edit', label: 'Auto-approve edits' },
  { id: 'auto', label: 'Auto-approve everything' },
];

/** The model and approval mode the next message is sent with. */
export function ComposerPickers({
  model,
  models,
  mode,
  onModel,
  onMode,
}: {
  model: string;
  models: readonly string[];
  mode: ApprovalMode;
  onModel(model: string): void;
  onMode(mode: ApprovalMode): void;
}) {
  return (
    <div className="composer-pickers">
      <label className="picker">
        <span>Model</span>
        <input
          list="composer-models"
          value={model}
          onChange={(e) => onModel(e.target.value)}
          data-testid="model-picker"
          spellCheck={false}
        />
        <datalist id="composer-models">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      <label className="picker">
        <span>Approvals</span>
        <select
          value={mode}
          onChange={(e) => onMode(e.target.value as ApprovalMode)}
          data-testid="approval-mode-picker"
        >
          {MODES.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
