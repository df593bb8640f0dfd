/** A vertical drag handle between two panes; arrow keys move it too (16 px a press). */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

interface Props {
  label: string;
  value: number;
  min: number;
  max: number;
  /** +1 when dragging right grows the pane, -1 when it shrinks it (a pane on the right). */
  direction: 1 | -1;
  onChange(px: number): void;
  testId?: string;
}

const STEP = 16;

/** Contract: reports the new pane width; the caller clamps and stores it. */
export function Splitter({ label, value, min, max, direction, onChange, testId }: Props) {
  const drag = useRef<{ x: number; start: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, start: value };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    onChange(drag.current.start + direction * (e.clientX - drag.current.x));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const delta = e.key === 'ArrowRight' ? STEP : e.key === 'ArrowLeft' ? -STEP : 0;
    if (delta !== 0) {
      e.preventDefault();
      onChange(value + direction * delta);
    } else if (e.key === 'Home') {
      e.preventDefault();
      onChange(min);
    } else if (e.key === 'End') {
      e.preventDefault();
      onChange(max);
    }
  };
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      data-testid={testId}
    />
  );
}
