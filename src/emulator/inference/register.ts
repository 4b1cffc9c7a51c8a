import { cors } from 'hono/cors';
import type { App, EmulatorContext } from '../context.js';
import { registerChat } from './compat-a/chat.js';
import { registerEmbeddings } from './compat-a/embeddings.js';
import { registerImages } from './compat-a/images.js';
import { registerFiles } from './compat-a/files.js';
import { registerBatches } from './compat-a/batches.js';
import { registerModels } from './compat-a/models.js';
import { registerRerank } from './compat-a/rerank.js';
import { registerSpeech } from './compat-a/speech.js';
import { defaultVoice } from '../../models/voice/index.js';
import { createBrain } from '../../models/brain/index.js';
import { createRecognizer } from '../../models/recognizer/index.js';
import { registerTranscriptions } from './compat-a/transcriptions.js';
import { registerCompatB } from './compat-b/routes.js';
import { JobQueue } from './jobs/queue.js';
import { registerJobs } from './jobs/routes.js';
import { emptyModels, type LocalModels, type Upstream } from './models/local-models.js';
import { registerOrgs } from './orgs/routes.js';
import { registerOther } from './other/routes.js';
import { defaultPlanRates, RateLimiter, type PlanRate } from './rate-limit/limiter.js';
import type { InferenceServices } from './services.js';
import { KnownRoutes, methodNotAllowedMessage } from '../http/errors.js';
import { InferenceError } from './shared/errors.js';
import { MediaStore } from './shared/media-store.js';
import { errorResponse } from './shared/route.js';
import { UsageRecorder } from './shared/usage.js';
import { makeRunner } from './tasks/run.js';
import { registerOperatorPlan } from './orgs/operator.js';
import { registerWorkflows } from './workflows/routes.js';

/**
 * Options of the inference family (all optional; EmulatorOptions carries them):
 * - `inferenceRateLimits`: per-plan `{ api, jobs }` per minute (default spec 8), or false.
 * - `inferenceUpstreams`: `{ [modelId]: { baseUrl, apiKey?, model? } }`, an OpenAI-compatible
 *   URL answering that model's compat-a requests instead of the local part.
 * - `inferenceModels`: the local parts (Brain, Voice, Recognizer, VAD) to answer with.
 * - `jobConcurrency`: worker pool size (default 2).
 */
export interface InferenceOptions {
  inferenceRateLimits?: Record<string, PlanRate> | false;
  inferenceUpstreams?: Record<string, Upstream>;
  inferenceModels?: Partial<LocalModels>;
  jobConcurrency?: number;
}

export function registerInference(app: App, ctx: EmulatorContext): InferenceServices {
  const o = ctx.options as InferenceOptions;
  const svc: InferenceServices = {
    ctx,
    limiter: new RateLimiter(ctx.clock, o.inferenceRateLimits ?? defaultPlanRates),
    usage: new UsageRecorder(ctx),
    media: new MediaStore(ctx),
    models: {
      ...emptyModels(),
      // The same parts and flags as the edge: --llm-url swaps the local brain for an upstream.
      brain: createBrain({
        llmUrl: ctx.options.llmUrl as string | undefined,
        llmModel: ctx.options.llmModel as string | undefined,
      }),
      voice: defaultVoice(),
      recognizer: createRecognizer({
        asrUrl: ctx.options.asrUrl as string | undefined,
        asrModel: ctx.options.asrModel as string | undefined,
      }),
      ...o.inferenceModels,
    },
    upstreams: o.inferenceUpstreams ?? {},
    jobs: new JobQueue(ctx, o.jobConcurrency ?? 2),
    internalSecret: ctx.ids.hex(32),
    routes: new KnownRoutes(),
  };
  svc.jobs.runner = makeRunner(svc);
  // Browser apps call the family too (the openai client with dangerouslyAllowBrowser): any
  // Origin passes the preflight, the requested headers are reflected; keys do the guarding.
  // Routes under /api/* already get the control plane's CORS (app.ts), which reflects the
  // requested headers too; adding it again would send every CORS header twice.
  const corsHeaders = cors({
    origin: (origin) => origin || null,
    allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    exposeHeaders: ['Retry-After'],
    maxAge: 600,
  });
  for (const prefix of ['/compat-a/*', '/compat-b/*', '/inference/*']) {
    app.use(prefix, corsHeaders);
  }
  svc.media.register(app);
  registerModels(app, svc);
  registerChat(app, svc);
  registerEmbeddings(app, svc);
  registerRerank(app, svc);
  registerImages(app, svc);
  registerFiles(app, svc);
  registerBatches(app, svc);
  registerSpeech(app, svc);
  registerTranscriptions(app, svc);
  registerCompatB(app, svc);
  registerJobs(app, svc);
  registerOther(app, svc);
  registerOrgs(app, svc);
  registerWorkflows(app, svc);
  registerOperatorPlan(app, svc);
  // Unknown paths of the family answer in its own error format (spec 7); a known path with
  // another method 405 with `Allow`, as the control plane does (docs/architecture.md).
  const family = [
    '/compat-a/*',
    '/compat-b/*',
    '/api/jobs',
    '/api/jobs/*',
    '/api/workflows',
    '/api/workflows/*',
    '/api/organizations',
    '/api/organizations/*',
    '/api/model-status',
    '/api/voice/models',
    '/api/prompt-rewrite',
  ];
  for (const prefix of family) {
    app.all(prefix, (c) => {
      const allow = svc.routes.allowed(c.req.path);
      if (allow.length === 0)
        return errorResponse(
          new InferenceError(404, 'not_found', `no route ${c.req.method} ${c.req.path}`),
        );
      return errorResponse(
        new InferenceError(
          405,
          'method_not_allowed',
          methodNotAllowedMessage(c.req.method, c.req.path),
          { headers: { Allow: allow.join(', ') } },
        ),
      );
    });
  }
  svc.jobs.start();
  return svc;
}
