import type { CommandModule } from './context.js';

/**
 * The top-level words of `avatar`, in the order `avatar --help` lists them. Each entry is
 * data only (a name, the one line `--help` shows, and lazy loaders), so `avatar --version`
 * and `avatar --help` load no command module, no schema and no HTTP client (issue 7 item
 * 12: start-up cost). `avatar <name> ...` loads only that entry's modules, then the
 * commands generated for `<name>` from the operation table (src/cli/generated.ts), so a
 * hand-written `<name> <verb>` replaces the generated one of the same name. A word that is
 * not listed here loads every module and every generated group (slower, never wrong).
 *
 * To add a group: create src/cli/commands/<group>.ts exporting a CommandModule whose
 * `register(program, cli)` adds `program.command('<group>')` and its verbs (reuse an
 * existing group with `program.commands.find(c => c.name() === '<group>')`), then append
 *
 *   { name: '<group>', description: '...', load: [async () => (await import('./commands/<group>.js')).myCommands] },
 *
 * to `commandGroups`. To add verbs to an existing group (`sessions live`), append your
 * loader to that entry's `load` list instead. A group that only has generated commands (an operation with
 * `cli: { group }`) still gets an entry, with `load: []`, so `avatar --help` lists it
 * (test/cli-lazy.test.ts checks that every generated group is listed). A module that
 * registers several groups (sessions.ts: sessions and webhooks) is named under each; it is
 * registered once. Use `cli.client()` for HTTP, `cli.print()` for results (JSON with
 * --json), `cli.note()` for progress on stderr, and throw CliError(message, ExitCode.usage)
 * for bad input; ApiResponseError from the client is mapped to exit codes by
 * src/cli/main.ts.
 */
export interface CommandGroup {
  name: string;
  /** Its heading in `avatar --help`; the list keeps each heading's groups together. */
  section: string;
  /** One line for `avatar --help` (no module is loaded to show it). */
  description: string;
  /** Hand-written modules adding commands under `name`. */
  load: (() => Promise<CommandModule>)[];
  /** The command needs the whole tree (`avatar completion`): every group is loaded too. */
  wholeTree?: boolean;
}

const emulator = async () => (await import('./emulator/emulator.js')).emulatorCommands;
const trigger = async () => (await import('./emulator/trigger.js')).triggerCommands;
const loadTest = async () => (await import('./load/load-test.js')).loadTestCommands;
const config = async () => (await import('./config/config.js')).configCommands;
const api = async () => (await import('./api/api.js')).apiCommand;
const avatars = async () => (await import('./avatars/avatars.js')).avatarCommands;
const tools = async () => (await import('./tools/tools.js')).toolsCommands;
const sessions = async () => (await import('./sessions/sessions.js')).sessionCommands;
const live = async () => (await import('./live/live.js')).liveCommands;
const recordings = async () => (await import('./sessions/recordings.js')).recordingCommands;
const replay = async () => (await import('./sessions/replay.js')).replayCommands;
const smoke = async () => (await import('./smoke/smoke.js')).smokeCommands;
const demo = async () => (await import('./demo/demo.js')).demoCommands;
const completion = async () => (await import('./completion/completion.js')).completionCommands;
const edge = async () => (await import('./edge/edge.js')).edgeCommands;
const generations = async () => (await import('./generations/generations.js')).generationCommands;
// The inference family (issue 11), one module per group.
const chat = async () => (await import('./inference/chat.js')).chatCommands;
const embed = async () => (await import('./inference/embed.js')).embedCommands;
const tts = async () => (await import('./inference/tts.js')).ttsCommands;
const transcribe = async () => (await import('./inference/transcribe.js')).transcribeCommands;
const images = async () => (await import('./inference/images.js')).imagesCommands;
const rerank = async () => (await import('./inference/rerank.js')).rerankCommands;
const models = async () => (await import('./inference/models.js')).modelsCommands;
const files = async () => (await import('./inference/files.js')).filesCommands;
const batches = async () => (await import('./inference/batches.js')).batchesCommands;
const run = async () => (await import('./inference/run.js')).runCommands;
const jobs = async () => (await import('./inference/jobs.js')).jobsCommands;
const workflows = async () => (await import('./inference/workflows.js')).workflowsCommands;
const orgs = async () => (await import('./inference/orgs.js')).orgsCommands;
const toolServers = async () => (await import('./tools/tool-servers.js')).toolServerCommands;
const hooks = async () => (await import('./hooks/hooks-serve.js')).hooksCommands;

/** The headings of `avatar --help`, in order (grouped as `gh --help` groups its commands). */
const START = 'Start here:';
const CONTROL = 'Control plane (/api/v1):';
const GENERATIONS = 'Generations:';
const INFERENCE = 'Inference:';
const MORE = 'More:';
/** Where `help [command]` is listed. */
export const HELP_SECTION = START;

export const commandGroups: CommandGroup[] = [
  {
    section: START,
    name: 'emulator',
    description: 'run the local, offline emulator of the whole service',
    load: [emulator],
  },
  {
    section: START,
    name: 'demo',
    description: 'a first conversation: ask a question, save the reply video',
    load: [demo],
  },
  {
    section: START,
    name: 'config',
    description: 'named connection profiles (stored under the XDG config dir)',
    load: [config],
  },
  {
    section: START,
    name: 'smoke',
    description: 'CI check of a deployment or the emulator, one line per step',
    load: [smoke],
  },
  {
    section: START,
    name: 'completion',
    description: 'shell completion for bash, zsh or fish',
    load: [completion],
    wholeTree: true,
  },
  {
    section: CONTROL,
    name: 'avatars',
    description: 'avatars (/api/v1/avatars...)',
    load: [avatars],
  },
  {
    section: CONTROL,
    name: 'versions',
    description: 'avatar versions (/api/v1/avatars/{avatarId}/versions...)',
    load: [avatars],
  },
  { section: CONTROL, name: 'voices', description: 'voices (/api/v1/voices...)', load: [avatars] },
  {
    section: CONTROL,
    name: 'profiles',
    description: 'avatar profiles (/api/v1/avatars/{avatarId}/profiles...)',
    load: [],
  },
  {
    section: CONTROL,
    name: 'sessions',
    description: 'live sessions and the queue (/api/v1/sessions)',
    load: [sessions, live, recordings, replay],
  },
  {
    section: CONTROL,
    name: 'webhooks',
    description: 'webhook endpoints (/api/v1/workspaces/{wsId}/webhooks)',
    load: [sessions],
  },
  { section: CONTROL, name: 'tokens', description: 'API keys (/api/v1/tokens...)', load: [] },
  {
    section: CONTROL,
    name: 'workspaces',
    description: 'workspaces (/api/v1/workspaces...)',
    load: [],
  },
  {
    section: CONTROL,
    name: 'devices',
    description: 'devices (/api/v1/workspaces/{wsId}/devices...)',
    load: [],
  },
  {
    section: CONTROL,
    name: 'issuers',
    description: 'trusted issuers (/api/v1/workspaces/{wsId}/issuers...)',
    load: [],
  },
  {
    section: CONTROL,
    name: 'gallery',
    description: 'stock personas, public (/api/gallery...)',
    load: [],
  },
  {
    section: CONTROL,
    name: 'jwks',
    description: 'the session-token signing keys (/.well-known/jwks.json)',
    load: [],
  },
  {
    section: CONTROL,
    name: 'tools',
    description: 'tools objects: validate locally with the service validator',
    load: [tools],
  },
  {
    section: CONTROL,
    name: 'mcp',
    description: 'MCP servers (/api/v1/workspaces/{wsId}/mcp-servers)',
    load: [toolServers],
  },
  {
    section: CONTROL,
    name: 'builtins',
    description: 'built-in tool servers (svc.image)',
    load: [toolServers],
  },
  {
    section: CONTROL,
    name: 'hooks',
    description: 'a local tenant hook: avatar hooks serve',
    load: [hooks],
  },
  {
    section: GENERATIONS,
    name: 'speak',
    description: 'text + face + voice -> a lip-synced MP4 (/api/v1/speak)',
    load: [generations],
  },
  {
    section: GENERATIONS,
    name: 'design',
    description: 'a voice described in words -> new audio (/api/v1/design)',
    load: [generations],
  },
  {
    section: GENERATIONS,
    name: 'prebuild',
    description: "warm a version's idle loop on every box (/api/v1/prebuild)",
    load: [generations],
  },
  {
    section: GENERATIONS,
    name: 'generations',
    description: 'one-shot generations (/api/v1/speak, design, prebuild)',
    load: [generations],
  },
  {
    section: INFERENCE,
    name: 'chat',
    description: 'chat with the model (/compat-a/v1/chat/completions)',
    load: [chat],
  },
  {
    section: INFERENCE,
    name: 'embed',
    description: 'embed texts (/compat-a/v1/embeddings)',
    load: [embed],
  },
  {
    section: INFERENCE,
    name: 'tts',
    description: 'speak text into an audio file (/compat-a/v1/audio/speech)',
    load: [tts],
  },
  {
    section: INFERENCE,
    name: 'transcribe',
    description: 'transcribe an audio file (/compat-a/v1/audio/transcriptions)',
    load: [transcribe],
  },
  {
    section: INFERENCE,
    name: 'images',
    description: 'generate images (/compat-a/v1/images)',
    load: [images],
  },
  {
    section: INFERENCE,
    name: 'rerank',
    description: 'rank documents by relevance (/compat-a/v1/rerank)',
    load: [rerank],
  },
  {
    section: INFERENCE,
    name: 'models',
    description: 'the inference models, slugs and tasks (/api/model-status)',
    load: [models],
  },
  {
    section: INFERENCE,
    name: 'files',
    description: 'files for batches (/compat-a/v1/files)',
    load: [files],
  },
  {
    section: INFERENCE,
    name: 'batches',
    description: 'batches of requests from JSONL (/compat-a/v1/batches)',
    load: [batches],
  },
  {
    section: INFERENCE,
    name: 'run',
    description: 'submit to a model by slug (/compat-b/{slug})',
    load: [run],
  },
  {
    section: INFERENCE,
    name: 'jobs',
    description: 'asynchronous model jobs (/api/jobs)',
    load: [jobs],
  },
  {
    section: INFERENCE,
    name: 'workflows',
    description: 'DAGs of model tasks: create, run (/api/workflows)',
    load: [workflows],
  },
  {
    section: INFERENCE,
    name: 'orgs',
    description: 'organisation tokens and usage (/api/organizations)',
    load: [orgs],
  },
  {
    section: MORE,
    name: 'api',
    description: 'call any route: avatar api GET /api/v1/workspaces',
    load: [api],
  },
  {
    section: MORE,
    name: 'edge',
    description: 'run an edge box in its own process (avatar edge start)',
    load: [edge],
  },
  {
    section: MORE,
    name: 'load-test',
    description: 'N live sessions at once: p50/p95/p99; --slo for CI',
    load: [loadTest],
  },
  {
    section: MORE,
    name: 'trigger',
    description: 'make the emulator do what a real situation would',
    load: [trigger],
  },
];

/**
 * Modules registered on every run, whatever the command word (the older pattern:
 * `commandModules.push(x)` after a static import). They work, but every import here is paid
 * by `avatar --help` and `--version`: prefer an entry in `commandGroups`.
 */
export const commandModules: CommandModule[] = [];
