import { z } from 'zod';
import { type ChatMessageSchema } from '../../../contract/resources/inference.js';
import type { BrainMessage } from '../../../models/brain.js';
import * as inference from '../../../contract/operations/inference.js';
import { wordDeltas } from '../../../models/brain/index.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { InferenceError, invalid } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { localModel, passToUpstream } from './resolve.js';

/** OpenAI roles onto the Brain's three: developer is a system prompt, a tool result is told as user text. */
function toBrain(messages: z.output<typeof ChatMessageSchema>[]): BrainMessage[] {
  return messages.map((m) => {
    const text =
      typeof m.content === 'string'
        ? m.content
        : (m.content ?? []).map((p) => p.text ?? '').join('');
    const role = m.role === 'developer' ? 'system' : m.role === 'tool' ? 'user' : m.role;
    return { role, content: m.role === 'tool' ? `[tool result] ${text}` : text };
  });
}

/**
 * Spec 4.12 POST /compat-a/v1/chat/completions, answered by the Brain the edge uses. With
 * `stream: true` it sends OpenAI's SSE chunks (`chat.completion.chunk`, role first, then
 * word-sized content deltas as the Brain produces each sentence, a finish chunk, `data: [DONE]`), plus a usage chunk when
 * `stream_options.include_usage` is set, as OpenAI does.
 */
export function registerChat(app: App, svc: InferenceServices): void {
  implementInference(
    app,
    svc,
    inference.chatCompletions,
    async ({ c, body: b, auth: { usage } }) => {
      const target = { model: localModel(svc, b.model, 'chat') };
      const brain = svc.models.brain;
      if (!brain)
        throw new InferenceError(
          503,
          'model_unavailable',
          `${target.model.id} has no Brain in this emulator; configure an upstream for it`,
        );
      const maxTokens = b.max_completion_tokens ?? b.max_tokens ?? undefined;
      const messages = toBrain(b.messages);
      if (!messages.some((m) => m.role === 'user'))
        throw invalid('messages: at least one user message', 'messages');
      const id = `chatcmpl-${svc.ctx.ids.hex(12)}`;
      const created = Math.floor(svc.ctx.clock.now() / 1000);
      const ac = new AbortController();
      c.req.raw.signal.addEventListener('abort', () => ac.abort(), { once: true });
      const { deltas, usage: brainUsage } = brain.reply({
        messages,
        model: b.model,
        maxTokens,
        temperature: b.temperature ?? undefined,
        signal: ac.signal,
      });
      usage.modelId = target.model.id;
      const usageOf = async () => {
        const u = await brainUsage;
        usage.promptTokens = u.promptTokens;
        usage.completionTokens = u.completionTokens;
        reason =
          u.finishReason ??
          (maxTokens !== undefined && u.completionTokens >= maxTokens ? 'length' : 'stop');
        return {
          prompt_tokens: u.promptTokens,
          completion_tokens: u.completionTokens,
          total_tokens: u.promptTokens + u.completionTokens,
        };
      };
      let reason = 'stop';
      const finishReason = (_u: unknown) => reason;

      if (!b.stream) {
        let text = '';
        for await (const d of deltas) text += d;
        const u = await usageOf();
        return {
          id,
          object: 'chat.completion' as const,
          created,
          model: b.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant' as const, content: text },
              finish_reason: finishReason(u),
              logprobs: null,
            },
          ],
          usage: u,
        };
      }

      usage.deferred = true;
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: b.model, choices, ...extra })}\n\n`;
      const enc = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          const send = (s: string) => controller.enqueue(enc.encode(s));
          try {
            send(
              chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
            );
            // The Brain streams sentences (what the edge speaks); clients get words, as they come.
            for await (const d of deltas)
              for (const w of wordDeltas(d))
                send(chunk([{ index: 0, delta: { content: w }, finish_reason: null }]));
            const u = await usageOf();
            send(chunk([{ index: 0, delta: {}, finish_reason: finishReason(u) }]));
            if (b.stream_options?.include_usage) send(chunk([], { usage: u }));
            send('data: [DONE]\n\n');
          } catch (e) {
            // Mid-stream failure: the status is already 200, so say it in an SSE error event.
            if (!ac.signal.aborted)
              send(
                `data: ${JSON.stringify(new InferenceError(500, 'internal_error', (e as Error).message, { type: 'server_error' }).toBody())}\n\n`,
              );
          } finally {
            try {
              usage.finish?.();
            } catch {
              // the store may be closing with the emulator
            }
            try {
              controller.close();
            } catch {
              // the client went away
            }
          }
        },
        cancel() {
          ac.abort();
        },
      });
      return new Response(stream, {
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        },
      });
    },
    { before: passToUpstream(svc, 'chat', '/chat/completions') },
  );
}
