/** A titled preformatted block in the span drawer. */

/** One block (arguments, output…). */
export function TraceBlock({
  title,
  text,
  testId,
}: {
  title: string;
  text: string;
  testId?: string;
}) {
  return (
    <section className="trace-block">
      <h4>{title}</h4>
      <pre data-testid={testId}>{text}</pre>
    </section>
  );
}
