/**
 * The models the emulator really has (spec 4.12: GET /compat-a/v1/models, GET
 * /api/model-status). Each is one of the local pluggable parts, or a small deterministic
 * model of its own (embeddings, BM25, procedural images). `spec_id` is the model's
 * compat-b slug (POST /compat-b/{slug}); `tasks` are what jobs and workflow nodes may ask.
 */
export type Task =
  | 'chat'
  | 'embedding'
  | 'text-to-speech'
  | 'speech-to-text'
  | 'text-to-image'
  | 'image-edit'
  | 'rerank'
  | 'score'
  | 'prompt-rewrite';

export type Part = 'brain' | 'voice' | 'recognizer' | 'builtin';

export interface CatalogModel {
  id: string;
  spec_id: string;
  tasks: Task[];
  /** Which pluggable part answers it (an upstream URL can stand in per model id). */
  part: Part;
  description: string;
}

export const catalog: CatalogModel[] = [
  {
    id: 'avatar-chat',
    spec_id: 'chat-v1',
    tasks: ['chat', 'prompt-rewrite'],
    part: 'brain',
    description: 'the Brain the edge replies with',
  },
  {
    id: 'avatar-embed',
    spec_id: 'embed-v1',
    tasks: ['embedding'],
    part: 'builtin',
    description: 'hashed word and character n-gram features, L2-normalised',
  },
  {
    id: 'avatar-rerank',
    spec_id: 'rerank-v1',
    tasks: ['rerank', 'score'],
    part: 'builtin',
    description: 'Okapi BM25 lexical relevance',
  },
  {
    id: 'avatar-tts',
    spec_id: 'tts-v1',
    tasks: ['text-to-speech'],
    part: 'voice',
    description: 'the Voice the edge speaks with',
  },
  {
    id: 'avatar-asr',
    spec_id: 'asr-v1',
    tasks: ['speech-to-text'],
    part: 'recognizer',
    description: 'voice activity segments + the Recognizer',
  },
  {
    id: 'avatar-image',
    spec_id: 'image-v1',
    tasks: ['text-to-image', 'image-edit'],
    part: 'builtin',
    description: 'procedural, deterministic PNG images',
  },
];

/** Release date of the catalog (the `created` of every model; ours). */
export const CATALOG_CREATED = 1_767_225_600; // 2026-01-01T00:00:00Z

export function findModel(idOrSlug: string): CatalogModel | undefined {
  return catalog.find((m) => m.id === idOrSlug || m.spec_id === idOrSlug);
}

/** The model answering `task` when a request names none (compat-a bodies always do). */
export function defaultModelFor(task: Task): CatalogModel {
  return catalog.find((m) => m.tasks.includes(task))!;
}
