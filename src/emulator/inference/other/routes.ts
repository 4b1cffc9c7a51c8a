import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import { catalog, type CatalogModel } from '../catalog.js';
import type { InferenceServices } from '../services.js';
import { rewritePrompt } from '../tasks/prompt-rewrite.js';
import { implementInference } from '../shared/route.js';

/** Spec 4.12 "Other": model status, the voices the emulator really has, prompt rewrite. */
export function registerOther(app: App, svc: InferenceServices): void {
  const enabled = (m: CatalogModel): boolean =>
    !!svc.upstreams[m.id] ||
    (m.part === 'brain'
      ? !!svc.models.brain
      : m.part === 'voice'
        ? !!svc.models.voice
        : m.part === 'recognizer'
          ? !!svc.models.recognizer?.available
          : true);

  implementInference(app, svc, inference.modelStatus, () => ({
    models: catalog.map((m) => ({
      model_id: m.id,
      spec_id: m.spec_id,
      enabled: enabled(m),
      tasks: m.tasks,
    })),
  }));

  // Shape not shown: one entry per TTS model with the base voices of its Voice (Voice.voices).
  implementInference(app, svc, inference.voiceModels, () => {
    const voice = svc.models.voice;
    return {
      data: catalog
        .filter((m) => m.tasks.includes('text-to-speech'))
        .map((m) => ({
          model_id: m.id,
          engine: voice?.name ?? null,
          enabled: !!voice,
          voices: (voice?.voices ?? []).map((v) => ({
            id: v.id,
            language: v.lang,
            ...(v.gender ? { gender: v.gender } : {}),
          })),
          response_formats: ['wav', 'mp3', 'opus', 'flac', 'aac', 'pcm'],
        })),
    };
  });

  implementInference(app, svc, inference.promptRewrite, async ({ body: b }) => {
    return rewritePrompt(b.prompt, b.target ?? 'image');
  });
}
