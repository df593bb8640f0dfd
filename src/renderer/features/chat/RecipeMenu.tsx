import type { RecipeSummary } from '../../../shared/ipc/contract.ts';

/** The recipes matching a `/prefix` typed in the composer (docs/recipes.md); picking one fills `/name `. */
export function RecipeMenu({
  recipes,
  prefix,
  onPick,
}: {
  recipes: RecipeSummary[];
  prefix: string;
  onPick: (name: string) => void;
}) {
  const matches = recipes.filter((r) => r.name.startsWith(prefix)).slice(0, 8);
  if (matches.length === 0) return null;
  return (
    <ul className="recipe-menu" role="listbox" aria-label="Recipes" data-testid="recipe-menu">
      {matches.map((r) => (
        <li key={r.name} role="option" aria-selected={false}>
          <button
            type="button"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(r.name)}
          >
            <strong>/{r.name}</strong>
            {r.argument_hint && <span className="muted"> {r.argument_hint}</span>}
            <span className="muted"> — {r.description}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
