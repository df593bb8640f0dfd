/** One completion choice: what is inserted and an optional hint. */
export interface CompletionItem {
  value: string;
  label: string;
  hint?: string;
}

/** The list under the message box for `@file` and `/` completions; keys are handled by the composer. */
export function CompletionMenu({
  id,
  items,
  active,
  onPick,
  label,
}: {
  id: string;
  items: readonly CompletionItem[];
  active: number;
  onPick(item: CompletionItem): void;
  label: string;
}) {
  if (items.length === 0) return null;
  return (
    <ul
      className="completion-menu"
      id={id}
      role="listbox"
      aria-label={label}
      data-testid="completion-menu"
    >
      {items.map((item, i) => (
        <li
          key={item.value}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'active' : undefined}
          data-testid="completion-item"
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(item);
          }}
        >
          <span className="completion-label">{item.label}</span>
          {item.hint && <span className="completion-hint muted">{item.hint}</span>}
        </li>
      ))}
    </ul>
  );
}
