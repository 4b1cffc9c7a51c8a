/**
 * POST /api/prompt-rewrite (spec 4.12, payload not shown): a deterministic prompt
 * enhancer. It tidies the prompt (spacing, a capital, one final stop), keeps every word
 * the user wrote, and adds the detail a generator needs for the target medium when the
 * prompt lacks it (subject framing, lighting, style for images; pacing for speech).
 */
const ADDITIONS: Record<string, { has: RegExp; add: string }[]> = {
  image: [
    {
      has: /\b(photo|painting|illustration|render|sketch|drawing|watercolou?r|3d|cartoon|anime)\b/i,
      add: 'digital illustration',
    },
    {
      has: /\b(light|lighting|lit|sunset|sunrise|dusk|dawn|night|glow)\b/i,
      add: 'soft natural lighting',
    },
    { has: /\b(close-up|portrait|wide|landscape|shot|view|angle)\b/i, add: 'balanced composition' },
    { has: /\b(detail|detailed|sharp|hd|4k|8k)\b/i, add: 'rich detail' },
  ],
  video: [
    { has: /\b(camera|pan|zoom|tracking|dolly|shot)\b/i, add: 'slow steady camera movement' },
    { has: /\b(light|lighting|lit|sunset|night)\b/i, add: 'cinematic lighting' },
  ],
  speech: [{ has: /[.!?]$/, add: '' }],
  chat: [],
};

export function rewritePrompt(
  prompt: string,
  target: string,
): { prompt: string; original: string; target: string } {
  let text = prompt.replace(/\s+/g, ' ').trim();
  text = text.charAt(0).toUpperCase() + text.slice(1);
  text = text.replace(/[\s.,;:]+$/, '');
  const extra = (ADDITIONS[target] ?? [])
    .filter((a) => a.add && !a.has.test(text))
    .map((a) => a.add);
  const rewritten = extra.length ? `${text}, ${extra.join(', ')}.` : `${text}.`;
  return { prompt: rewritten, original: prompt, target };
}
