/**
 * How the local (deterministic) brain says a tool result aloud (docs/tools.md "The spoken
 * line"). The plain line: an image is "Here is the picture: <caption>.", a pending image
 * "The picture is on its way.", anything else the result's text (300 chars at most).
 *
 * A tool's `speak_hint` (spec 2: "how to deliver the result aloud") is read as a template
 * when it has `{field}` placeholders: `{text}`, `{caption}`, `{url}`, `{kind}`, and any
 * field of `structured` (`{count}`, dotted for nested objects: `{shop.city}`). Every
 * placeholder filled: the hint, filled, is the line. A placeholder with nothing behind it,
 * or a hint without placeholders (a style instruction such as "say it cheerfully", which
 * only an upstream model can follow), leaves the plain line.
 */

/** A tool result as the box holds it (spec 6.2). */
export interface SpokenResult {
  kind: string;
  text?: string;
  caption?: string;
  url?: string;
  structured?: unknown;
}

/** The longest line the avatar says for a result (ours). */
export const SPOKEN_LINE_CHARS = 300;

const clip = (s: string) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > SPOKEN_LINE_CHARS ? `${t.slice(0, SPOKEN_LINE_CHARS - 3)}...` : t;
};

/** The plain spoken line for a result. */
export function followUpLine(r: SpokenResult): string {
  if (r.kind === 'image')
    return r.caption ? `Here is the picture: ${r.caption}.` : 'Here is the picture.';
  if (r.kind === 'image_pending') return 'The picture is on its way.';
  return clip(r.text ?? '') || 'Done.';
}

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

function field(r: SpokenResult, path: string): string | null {
  const own: Record<string, unknown> = {
    text: r.text,
    caption: r.caption,
    url: r.url,
    kind: r.kind,
  };
  // Own properties only: `{toString}` or `{__proto__}` name nothing behind the result.
  let v: unknown = Object.hasOwn(own, path) ? own[path] : undefined;
  if (v === undefined) {
    v = r.structured;
    for (const key of path.split('.')) {
      if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, key)) return null;
      v = (v as Record<string, unknown>)[key];
    }
  }
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** The line the local brain says for a result, following the tool's `speak_hint` when it is a template. */
export function hintedLine(hint: string | undefined, r: SpokenResult): string {
  const plain = followUpLine(r);
  if (!hint || !/\{[A-Za-z0-9_.-]+\}/.test(hint)) return plain;
  let missing = false;
  const filled = hint.replace(PLACEHOLDER, (_, path: string) => {
    const v = field(r, path);
    if (v === null) missing = true;
    return v ?? '';
  });
  return missing ? plain : clip(filled) || plain;
}
