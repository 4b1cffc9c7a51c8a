/**
 * Bounded echoes (issue 7 item 6): an error body repeats caller input only in short form,
 * so a 100 kB field or a body of 10,000 unknown keys never comes back whole in `message`,
 * `detail` or a suffixed `error` code. Shared by the emulator's error envelope and the
 * contract validators (the CLI's `tools validate` prints the same texts).
 */

/** Characters of one echoed value kept before the ellipsis. */
export const ECHO_CHARS = 64;
/** A run of non-space characters longer than this in an error text may be an echo to shorten. */
const LONG_RUN = 80;
/** Longest error text (message or detail) sent back. */
const MAX_TEXT = 1000;
/** How many items of a list an error names before the count of the rest. */
const LIST_SHOWN = 5;

/** The value itself when short, else its first characters and an ellipsis. */
export function echo(value: string, max = ECHO_CHARS): string {
  if (value.length <= max) return value;
  // Whole code points: never cut a surrogate pair in half.
  return (
    Array.from(value.slice(0, max * 2))
      .slice(0, max - 1)
      .join('') + '…'
  );
}

/** The first few items (quoted) and a count of the rest: `"a", "b" and 9,998 more`. */
export function echoList(items: readonly string[], shown = LIST_SHOWN): string {
  const head = items.slice(0, shown).map((k) => JSON.stringify(echo(k)));
  const rest = items.length - head.length;
  return rest > 0 ? `${head.join(', ')} and ${rest.toLocaleString('en-US')} more` : head.join(', ');
}

/**
 * An error text with every long run shortened (`profile xxxx…  not found` keeps its
 * sentence) and the whole capped. Texts already short come back as they are.
 */
export function boundText(text: string): string {
  if (text.length <= LONG_RUN) return text;
  const out = text.replace(new RegExp(`\\S{${LONG_RUN + 1},}`, 'g'), shortenRun);
  return echo(out, MAX_TEXT);
}

/**
 * A `prefix:value` run (suffixed codes such as `schema_too_deep:<tool name>`, details such
 * as `unknown_config_key:<key>`) keeps its prefix and bounds the value alone, so a legal
 * 64-character tool name still comes back whole in its code.
 */
function shortenRun(run: string): string {
  const colon = run.indexOf(':');
  return colon > 0 && colon < ECHO_CHARS
    ? run.slice(0, colon + 1) + echo(run.slice(colon + 1))
    : echo(run);
}
