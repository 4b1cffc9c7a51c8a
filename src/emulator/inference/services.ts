import type { EmulatorContext } from '../context.js';
import type { KnownRoutes } from '../http/errors.js';
import type { JobQueue } from './jobs/queue.js';
import type { LocalModels, Upstream } from './models/local-models.js';
import type { RateLimiter } from './rate-limit/limiter.js';
import type { MediaStore } from './shared/media-store.js';
import type { UsageRecorder } from './shared/usage.js';

/** What every inference module gets (built once in register.ts). */
export interface InferenceServices {
  ctx: EmulatorContext;
  limiter: RateLimiter;
  usage: UsageRecorder;
  media: MediaStore;
  models: LocalModels;
  upstreams: Record<string, Upstream>;
  jobs: JobQueue;
  /** Authenticates the emulator's in-process requests to itself (shared/internal.ts). */
  internalSecret: string;
  /** Every route of the family, for the 405's `Allow` (implementInference adds them). */
  routes: KnownRoutes;
}
