/**
 * A body the CLI checks with the contract's zod schema before sending (generated commands,
 * `sessions mint`): the first issue as one usage line that says what to do (issue 24 items
 * 8 and 11). A field left out reads `--name is required`; a key the body does not take
 * names the field meant when one is close, and the fields there are.
 */
export interface BodyIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

export function bodyIssueText(
  issue: BodyIssue,
  body: unknown,
  flags: { field: string; flag: string }[],
  what: string,
): string {
  const field = String(issue.path[0] ?? '');
  const flag = flags.find((f) => f.field === field);
  const name = flag ? `--${flag.flag}` : field || 'body';
  if (issue.code === 'unrecognized_keys' && issue.path.length === 0 && issue.keys?.length) {
    const key = issue.keys[0]!;
    const fields = flags.map((f) => f.field);
    const near = closest(key, fields);
    return `${key} is not a ${what} field${near ? `; did you mean ${near}?` : ''} (fields: ${fields.join(', ')})`;
  }
  const given =
    body !== null && typeof body === 'object'
      ? (body as Record<string, unknown>)[field]
      : undefined;
  if (issue.path.length === 1 && field !== '' && given === undefined) return `${name} is required`;
  return `${name}: ${issue.message}`;
}

/** The field (or name) a mistyped key most likely meant: one containing it, else within 2 edits. */
export function closest(key: string, fields: string[]): string | undefined {
  const k = key.toLowerCase();
  const containing = fields.filter((f) => f.includes(k) || (k.length > 3 && k.includes(f)));
  if (containing.length > 0) return containing.sort((a, b) => a.length - b.length)[0];
  let best: [string, number] | undefined;
  for (const f of fields) {
    const d = edits(k, f);
    if (d <= 2 && (!best || d < best[1])) best = [f, d];
  }
  return best?.[0];
}

function edits(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}
