/**
 * Hand-written avatar workflows (the plain resource commands are generated from the
 * operation table): uploads with progress, and `avatars create-custom`, which makes a
 * ready custom avatar from a face image, a voice sample and a prompt file in one go.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Limits } from '../../contract/limits.js';
import type { CliContext, CommandModule } from '../context.js';
import {
  addCommand,
  defineCommand,
  groupCommand,
  type OptionSpec,
  type OptionsOf,
} from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { checkFaceFile, checkVoiceFile } from '../local-media.js';
import { readUpload, uploadFile } from './upload.js';

function readText(cli: CliContext, file: string): string {
  try {
    return readFileSync(resolve(cli.io.cwd, file), 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, ExitCode.usage);
  }
}

const refHeader = (text: string | undefined): Record<string, string> =>
  text === undefined ? {} : { 'x-ref-text': encodeURIComponent(text) };

/** `avatar avatars create-custom`'s options (its type is inferred: CreateCustomOptions). */
const createCustomOptions = {
  name: { flags: '--name <name>', description: 'avatar name', required: true },
  face: {
    flags: '--face <file>',
    description: 'face image (.jpg, .png, .webp; at most 10 MB)',
    required: true,
  },
  voice: {
    flags: '--voice <file>',
    description: 'voice sample (.wav, .mp3; 5 to 30 s; at most 25 MB)',
    required: true,
  },
  prompt: {
    flags: '--prompt <file>',
    description: 'text file with the system prompt',
    required: true,
  },
  backstory: { flags: '--backstory <file>', description: 'text file with the backstory' },
  refText: { flags: '--ref-text <text>', description: 'transcript of the voice sample' },
  language: { flags: '--language <tag>', description: 'native language (BCP-47)' },
  wait: { flags: '--no-wait', description: 'return at once instead of waiting for the idle media' },
  timeout: {
    flags: '--timeout <seconds>',
    description: 'how long to wait for the idle media',
    default: '120',
  },
} as const satisfies Record<string, OptionSpec>;

type CreateCustomOptions = OptionsOf<typeof createCustomOptions>;

const CONTENT_TYPE = {
  flags: '--content-type <type>',
  description: 'override the type guessed from the extension',
} as const;
const REF_TEXT = {
  flags: '--ref-text <text>',
  description: 'transcript of the sample (sent as X-Ref-Text)',
} as const;

async function createCustom(cli: CliContext, o: CreateCustomOptions) {
  // Check and read everything first: a bad flag or a missing file is a usage error
  // before anything is created.
  const timeoutS = o.timeout.trim() === '' ? NaN : Number(o.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS < 0) {
    throw new CliError(
      `--timeout takes a number of seconds (0 or more), got ${JSON.stringify(o.timeout)}`,
      ExitCode.usage,
    );
  }
  const face = readUpload(cli, o.face, 'image', undefined, { flag: '--face', canOverride: false });
  const voice = readUpload(cli, o.voice, 'audio', undefined, {
    flag: '--voice',
    canOverride: false,
  });
  const prompt = readText(cli, o.prompt);
  const backstory = o.backstory ? readText(cli, o.backstory) : undefined;
  // The service's own checks, locally (type by content, a whole image, 5 to 30 s of voice):
  // a bad file is a usage error before anything exists (issue 7 item 9).
  if (face.bytes.length > Limits.faceImageBytes)
    throw new CliError(`--face ${face.name}: larger than 10 MB`, ExitCode.usage);
  if (voice.bytes.length > Limits.voiceSampleBytes)
    throw new CliError(`--voice ${voice.name}: larger than 25 MB`, ExitCode.usage);
  await checkFaceFile(o.face, face.bytes);
  await checkVoiceFile(o.voice, voice.bytes);
  const { createAvatar } = await avatarOps();
  const client = cli.client();
  const avatar = (await client.call(createAvatar, { body: { name: o.name, kind: 'custom' } })).body;
  cli.note(`avatar ${avatar.id} created`);
  try {
    await finishCustom(cli, o, avatar.id, { face, voice, prompt, backstory, timeoutS });
  } catch (err) {
    // A later step failed: remove what this command created, or say exactly what is left.
    if (!(err instanceof CliError && err.exitCode === ExitCode.interrupted))
      await removeCreated(cli, avatar.id);
    throw err;
  }
}

async function removeCreated(cli: CliContext, avatarId: string): Promise<void> {
  try {
    const { deleteAvatar } = await avatarOps();
    await cli.client().call(deleteAvatar, { params: { avatarId } });
    cli.note(`removed avatar ${avatarId}, which this command had created`);
  } catch (e) {
    cli.io.stderr.write(
      `avatar ${avatarId} was created and is left behind (removing it failed: ${(e as Error).message}); ` +
        `delete it with: avatar avatars delete ${avatarId}\n`,
    );
  }
}

type Upload = ReturnType<typeof readUpload>;

/** The operations, loaded when a command runs (help loads no schema; src/cli/command-manifest.ts). */
const avatarOps = () => import('../../contract/operations/avatars.js');

async function finishCustom(
  cli: CliContext,
  o: CreateCustomOptions,
  avatarId: string,
  f: { face: Upload; voice: Upload; prompt: string; backstory?: string; timeoutS: number },
) {
  const { face, voice, prompt, backstory, timeoutS } = f;
  const { createVersion, getAvatar, uploadFace, uploadVoice } = await avatarOps();
  const client = cli.client();
  const avatar = { id: avatarId };
  const version = (
    await client.call(createVersion, {
      params: { avatarId: avatar.id },
      body: {
        system_prompt: prompt,
        backstory,
        native_language: o.language,
        voice_ref_text: o.refText,
      },
    })
  ).body;
  const params = { avatarId: avatar.id, versionId: version.id };
  // Voice first, face last: the face upload publishes the version (docs/avatars.md).
  await uploadFile(cli, uploadVoice, params, voice, refHeader(o.refText));
  await uploadFile(cli, uploadFace, params, face);
  let current = (await client.call(getAvatar, { params: { avatarId: avatar.id } })).body;
  if (o.wait) {
    const deadline = Date.now() + timeoutS * 1000;
    cli.note('building idle media...');
    while (current.assets_status !== 'ready' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      current = (await client.call(getAvatar, { params: { avatarId: avatar.id } })).body;
    }
    if (current.assets_status !== 'ready')
      cli.note(`idle media still ${current.assets_status}; the avatar is usable anyway`);
  }
  cli.print({ ...current, version_id: version.id });
}

export const avatarCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const avatars = groupCommand(program, 'avatars', 'avatars (/api/v1/avatars...)');
    addCommand(
      avatars,
      defineCommand({
        name: 'create-custom',
        summary: 'create a ready custom avatar from a face image, a voice sample and a prompt file',
        options: createCustomOptions,
        run: ({ options }) => createCustom(cli, options),
      }),
      cli,
    );

    const versions = groupCommand(
      program,
      'versions',
      'avatar versions (/api/v1/avatars/{avatarId}/versions...)',
    );
    const imageUpload = (verb: string, desc: string, op: 'uploadFace' | 'uploadExtraFace') =>
      addCommand(
        versions,
        defineCommand({
          name: verb,
          summary: desc,
          args: {
            avatarId: '<avatarId>',
            versionId: '<versionId>',
            file: { usage: '<file>', description: 'image file (.jpg, .png, .webp)' },
          },
          options: { contentType: CONTENT_TYPE },
          async run({ args: { avatarId, versionId, file }, options: o }) {
            cli.print(
              await uploadFile(
                cli,
                (await avatarOps())[op],
                { avatarId, versionId },
                readUpload(cli, file, 'image', o.contentType),
              ),
            );
          },
        }),
        cli,
      );
    imageUpload('upload-face', 'upload the face image of a version (publishes it)', 'uploadFace');
    imageUpload('add-face', 'add one more face image to a version', 'uploadExtraFace');
    /** An audio sample upload of `<owner> <versionId> <file>` (a version's voice, a voice's sample). */
    const sampleUpload = (
      name: string,
      summary: string,
      owner: 'avatarId' | 'voiceId',
      op: () => Promise<Parameters<typeof uploadFile>[1]>,
    ) =>
      defineCommand({
        name,
        summary,
        args: {
          owner: `<${owner}>`,
          versionId: '<versionId>',
          file: { usage: '<file>', description: 'audio file (.wav, .mp3)' },
        },
        options: { refText: REF_TEXT, contentType: CONTENT_TYPE },
        async run({ args: { owner: id, versionId, file }, options: o }) {
          const upload = readUpload(cli, file, 'audio', o.contentType);
          const params = { [owner]: id, versionId };
          cli.print(await uploadFile(cli, await op(), params, upload, refHeader(o.refText)));
        },
      });
    addCommand(
      versions,
      sampleUpload(
        'upload-voice',
        'upload the voice sample of a version (5 to 30 s of mpeg or wav)',
        'avatarId',
        async () => (await avatarOps()).uploadVoice,
      ),
      cli,
    );

    const voices = groupCommand(program, 'voices', 'voices (/api/v1/voices...)');
    addCommand(
      voices,
      sampleUpload(
        'upload-sample',
        'upload the audio sample of a voice version (makes it current)',
        'voiceId',
        async () => (await import('../../contract/operations/voices.js')).uploadVoiceSample,
      ),
      cli,
    );
  },
};
