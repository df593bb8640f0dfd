/** The Create / Cancel row at the foot of a "new item" form. */
export function FormActions({
  valid,
  onCancel,
  createTestId,
}: {
  valid: boolean;
  onCancel: () => void;
  createTestId: string;
}) {
  return (
    <div className="inline">
      <button type="submit" className="primary" disabled={!valid} data-testid={createTestId}>
        Create
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
