import Anser from 'anser';
import { memo, useLayoutEffect, useRef } from 'react';
import type { LiveChunk } from '../../stores/chat-types.ts';
import './desk.css';

/** One chunk's text as coloured spans (ANSI SGR codes through anser; anything else is dropped). */
function AnsiText({ text }: { text: string }) {
  const parts = Anser.ansiToJson(text, { use_classes: true, remove_empty: true });
  return (
    <>
      {parts.map((p, i) => {
        const classes = [
          p.fg && `${p.fg}-fg`,
          p.bg && `${p.bg}-bg`,
          ...p.decorations.map((d) => `ansi-${d}`),
        ].filter(Boolean);
        return classes.length ? (
          <span key={i} className={classes.join(' ')}>
            {p.content}
          </span>
        ) : (
          p.content
        );
      })}
    </>
  );
}

/**
 * A command's output as a terminal shows it: ANSI colours, stderr marked, and scrolled to the end
 * while the user has not scrolled up.
 */
export const TerminalOutput = memo(function TerminalOutput({
  chunks,
  footer,
  testId = 'tool-terminal',
}: {
  chunks: readonly LiveChunk[];
  /** A last line saying how the command ended (cancelled, timed out), shown while it is known. */
  footer?: string;
  testId?: string;
}) {
  const ref = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [chunks, footer]);
  return (
    <pre
      ref={ref}
      className="terminal"
      data-testid={testId}
      aria-label="Command output"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {chunks.map((c, i) => (
        <span
          key={i}
          className={c.stream === 'stderr' ? 'term-stderr' : undefined}
          data-stream={c.stream}
        >
          <AnsiText text={c.text} />
        </span>
      ))}
      {footer && (
        <span className="term-footer" data-testid="terminal-footer">
          {`\n${footer}`}
        </span>
      )}
    </pre>
  );
});
