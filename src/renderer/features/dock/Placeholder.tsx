/** A dock tab whose feature lands in the next release. */
export function Placeholder({ name }: { name: string }) {
  return (
    <div className="placeholder" data-testid={`placeholder-${name.toLowerCase()}`}>
      <p>
        <strong>{name}</strong> — coming in the next release.
      </p>
    </div>
  );
}
