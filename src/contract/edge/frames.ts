/**
 * JSON frames both protocols share (spec 6.1 and docs/protocol-v2.md): partial, turn,
 * error, agent_event, speech; anything else is telemetry. And an upgrade refusal as a close.
 */
import { parseFrame, str } from './emitter.js';
import type { BrainPayload, ClosedEvent, EdgeEvent } from './events.js';

export function mapControl(f: Record<string, unknown>, socket: string): EdgeEvent {
  switch (f.type) {
    case 'partial':
      return { type: 'partial', text: str(f.text) ?? '' };
    case 'turn':
      return {
        type: 'turn',
        text: str(f.text) ?? '',
        reply: str(f.reply) ?? '',
        language: str(f.language),
        speech_id: str(f.speech_id),
        ...(f.greeting === true ? { greeting: true } : {}),
        ...brainOf(f.brain),
      };
    case 'error':
      return { type: 'error', error: errorText(f), socket };
    case 'agent_event':
      return {
        type: 'agent_event',
        kind: str(f.kind) ?? '',
        tool: str(f.tool),
        call_id: str(f.call_id),
        url: str(f.url),
        caption: str(f.caption),
      };
    case 'speech':
      return {
        type: 'speech',
        speech_id: str(f.speech_id),
        status: str(f.status) ?? '',
        said: str(f.said),
      };
    default:
      return { type: 'telemetry', frame: f };
  }
}

/**
 * A brain-only turn's `brain: { name, reply, usage }` (docs/edge.md), as `{ brain }` to
 * spread into the turn; nothing when it is absent or not an object with a name.
 */
function brainOf(v: unknown): { brain?: BrainPayload } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const b = v as Record<string, unknown>;
  const name = str(b.name);
  if (name === undefined) return {};
  const u =
    b.usage && typeof b.usage === 'object' ? (b.usage as Record<string, unknown>) : undefined;
  const count = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
  const usage = u
    ? { prompt_tokens: count(u.prompt_tokens), completion_tokens: count(u.completion_tokens) }
    : undefined;
  return { brain: { name, reply: str(b.reply) ?? '', ...(usage ? { usage } : {}) } };
}

/** `{ type: error, error, detail? }` as one line (`render_disabled: this session is brain-only`). */
export function errorText(f: Record<string, unknown>): string {
  const code = str(f.error) ?? JSON.stringify(f);
  return typeof f.detail === 'string' ? `${code}: ${f.detail}` : code;
}

/** An upgrade answered with HTTP (spec 4.6 refusals carry the JSON envelope). */
export function refusal(status: number, body: string, socket: string): ClosedEvent {
  const env = parseFrame(body);
  const why =
    typeof env?.detail === 'string'
      ? env.detail
      : typeof env?.message === 'string'
        ? env.message
        : undefined;
  const detail = `HTTP ${status}${env?.error ? ` ${String(env.error)}` : ''}${why ? `: ${why}` : ''}`;
  return { type: 'closed', reason: 'refused', code: status, detail, socket };
}
