import { z } from 'zod';
import { TaskError } from '../jobs/queue.js';
import type { JobRow } from '../jobs/store.js';
import type { InferenceServices } from '../services.js';
import { parsePayload } from './run.js';

const Chat = z.object({
  messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })).min(1),
  max_tokens: z.number().int().min(1).optional(),
});

/** Tasks answered by the pluggable parts (Brain, Voice, Recognizer). */
export async function modelTasks(svc: InferenceServices, job: JobRow, payload: unknown, signal: AbortSignal): Promise<unknown> {
  switch (job.task) {
    case 'chat': {
      const p = parsePayload(Chat, payload);
      const brain = svc.models.brain;
      if (!brain) throw new TaskError('model_unavailable', 'no Brain in this emulator');
      const { deltas, usage } = brain.reply({ messages: p.messages, model: job.model_id, maxTokens: p.max_tokens, signal });
      let text = '';
      for await (const d of deltas) text += d;
      const u = await usage;
      return { text, usage: { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.promptTokens + u.completionTokens } };
    }
    default:
      throw new TaskError('unsupported_task', `task ${job.task} is not available in this emulator yet`);
  }
}
