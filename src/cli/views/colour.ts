/**
 * Colours for line output: on only when the stream is a terminal and NO_COLOR is not set
 * (https://no-color.org: any value, even empty, turns them off).
 */
export interface Paint {
  green(s: string): string;
  red(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function paintFor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): Paint {
  const on = !!stream.isTTY && env.NO_COLOR === undefined;
  const sgr = (open: number, close: number) => (s: string) =>
    on ? `\x1b[${open}m${s}\x1b[${close}m` : s;
  return { green: sgr(32, 39), red: sgr(31, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}
