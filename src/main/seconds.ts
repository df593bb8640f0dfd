/** A duration in milliseconds as seconds to one decimal, for messages ("stopped after 2.5 s"). */
export function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
