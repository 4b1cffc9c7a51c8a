/** The command groups of src/cli/inference/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { chatCommand } from './chat.js';
import { embedCommand } from './embed.js';
import { ttsCommand } from './tts.js';
import { transcribeCommand } from './transcribe.js';
import { imagesGenerateCommand } from './images.js';
import { rerankCommand } from './rerank.js';
import { modelsCommand } from './models.js';
import { filesCommands } from './files.js';
import { batchesCommands } from './batches.js';
import { runCommand } from './run.js';
import { jobsCommands } from './jobs.js';
import { workflowsCommands } from './workflows.js';
import { orgsCommand } from './orgs.js';

export const groups = [
  defineGroup({
    name: 'chat',
    section: SECTION.inference,
    rank: 25,
    description: 'chat with the model (/compat-a/v1/chat/completions)',
    commands: [chatCommand],
  }),
  defineGroup({
    name: 'embed',
    section: SECTION.inference,
    rank: 26,
    description: 'embed texts (/compat-a/v1/embeddings)',
    commands: [embedCommand],
  }),
  defineGroup({
    name: 'tts',
    section: SECTION.inference,
    rank: 27,
    description: 'speak text into an audio file (/compat-a/v1/audio/speech)',
    commands: [ttsCommand],
  }),
  defineGroup({
    name: 'transcribe',
    section: SECTION.inference,
    rank: 28,
    description: 'transcribe an audio file (/compat-a/v1/audio/transcriptions)',
    commands: [transcribeCommand],
  }),
  defineGroup({
    name: 'images',
    section: SECTION.inference,
    rank: 29,
    description: 'generate images (/compat-a/v1/images)',
    commands: [imagesGenerateCommand],
  }),
  defineGroup({
    name: 'rerank',
    section: SECTION.inference,
    rank: 30,
    description: 'rank documents by relevance (/compat-a/v1/rerank)',
    commands: [rerankCommand],
  }),
  defineGroup({
    name: 'models',
    section: SECTION.inference,
    rank: 31,
    description: 'the inference models, slugs and tasks (/api/model-status)',
    commands: [modelsCommand],
  }),
  defineGroup({
    name: 'files',
    section: SECTION.inference,
    rank: 32,
    description: 'files for batches (/compat-a/v1/files)',
    commands: filesCommands,
  }),
  defineGroup({
    name: 'batches',
    section: SECTION.inference,
    rank: 33,
    description: 'batches of requests from JSONL (/compat-a/v1/batches)',
    commands: batchesCommands,
  }),
  defineGroup({
    name: 'run',
    section: SECTION.inference,
    rank: 34,
    description: 'submit to a model by slug (/compat-b/{slug})',
    commands: [runCommand],
  }),
  defineGroup({
    name: 'jobs',
    section: SECTION.inference,
    rank: 35,
    description: 'asynchronous model jobs (/api/jobs)',
    commands: jobsCommands,
  }),
  defineGroup({
    name: 'workflows',
    section: SECTION.inference,
    rank: 36,
    description: 'DAGs of model tasks: create, run (/api/workflows)',
    commands: workflowsCommands,
  }),
  defineGroup({
    name: 'orgs',
    section: SECTION.inference,
    rank: 37,
    description: 'organisation tokens and usage (/api/organizations)',
    commands: [orgsCommand],
  }),
];
