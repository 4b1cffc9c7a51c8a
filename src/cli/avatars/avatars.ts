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
import { CliError, ExitCode } from '../exit-codes.js';
import { checkFaceFile, checkVoiceFile } from '../local-media.js';
import { readUpload, uploadFile } from './upload.js';

const group = (program: Command, name: string, description: string) =>
  (program.commands.find((c) => c.name() === name) as Command | undefined) ??
  program.command(name).description(description);

function readText(cli: CliContext, file: string): string {
  try {
    return readFileSync(resolve(cli.io.cwd, file), 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, ExitCode.usage);
  }
}

const refHeader = (text: string | undefined): Record<string, string> =>
  text === undefined ? {} : { 'x-ref-text': encodeURIComponent(text) };

interface CreateCustomOptions {
  name: string;
  face: string;
  voice: string;
  prompt: string;
  backstory?: string;
  refText?: string;
  language?: string;
  wait: boolean;
  timeout: string;
}

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
    const avatars = group(program, 'avatars', 'avatars (/api/v1/avatars...)');
    avatars
      .command('create-custom')
      .description(
        'create a ready custom avatar from a face image, a voice sample and a prompt file',
      )
      .requiredOption('--name <name>', 'avatar name')
      .requiredOption('--face <file>', 'face image (.jpg, .png, .webp; at most 10 MB)')
      .requiredOption('--voice <file>', 'voice sample (.wav, .mp3; 5 to 30 s; at most 25 MB)')
      .requiredOption('--prompt <file>', 'text file with the system prompt')
      .option('--backstory <file>', 'text file with the backstory')
      .option('--ref-text <text>', 'transcript of the voice sample')
      .option('--language <tag>', 'native language (BCP-47)')
      .option('--no-wait', 'return at once instead of waiting for the idle media')
      .option('--timeout <seconds>', 'how long to wait for the idle media', '120')
      .action((opts: CreateCustomOptions) => createCustom(cli, opts));

    const versions = group(
      program,
      'versions',
      'avatar versions (/api/v1/avatars/{avatarId}/versions...)',
    );
    const imageUpload = (verb: string, desc: string, op: 'uploadFace' | 'uploadExtraFace') =>
      versions
        .command(verb)
        .description(desc)
        .argument('<avatarId>')
        .argument('<versionId>')
        .argument('<file>', 'image file (.jpg, .png, .webp)')
        .option('--content-type <type>', 'override the type guessed from the extension')
        .action(
          async (
            avatarId: string,
            versionId: string,
            file: string,
            o: { contentType?: string },
          ) => {
            cli.print(
              await uploadFile(
                cli,
                (await avatarOps())[op],
                { avatarId, versionId },
                readUpload(cli, file, 'image', o.contentType),
              ),
            );
          },
        );
    imageUpload('upload-face', 'upload the face image of a version (publishes it)', 'uploadFace');
    imageUpload('add-face', 'add one more face image to a version', 'uploadExtraFace');
    versions
      .command('upload-voice')
      .description('upload the voice sample of a version (5 to 30 s of mpeg or wav)')
      .argument('<avatarId>')
      .argument('<versionId>')
      .argument('<file>', 'audio file (.wav, .mp3)')
      .option('--ref-text <text>', 'transcript of the sample (sent as X-Ref-Text)')
      .option('--content-type <type>', 'override the type guessed from the extension')
      .action(
        async (
          avatarId: string,
          versionId: string,
          file: string,
          o: { refText?: string; contentType?: string },
        ) => {
          const upload = readUpload(cli, file, 'audio', o.contentType);
          const { uploadVoice } = await avatarOps();
          cli.print(
            await uploadFile(
              cli,
              uploadVoice,
              { avatarId, versionId },
              upload,
              refHeader(o.refText),
            ),
          );
        },
      );

    const voices = group(program, 'voices', 'voices (/api/v1/voices...)');
    voices
      .command('upload-sample')
      .description('upload the audio sample of a voice version (makes it current)')
      .argument('<voiceId>')
      .argument('<versionId>')
      .argument('<file>', 'audio file (.wav, .mp3)')
      .option('--ref-text <text>', 'transcript of the sample (sent as X-Ref-Text)')
      .option('--content-type <type>', 'override the type guessed from the extension')
      .action(
        async (
          voiceId: string,
          versionId: string,
          file: string,
          o: { refText?: string; contentType?: string },
        ) => {
          const upload = readUpload(cli, file, 'audio', o.contentType);
          const { uploadVoiceSample } = await import('../../contract/operations/voices.js');
          cli.print(
            await uploadFile(
              cli,
              uploadVoiceSample,
              { voiceId, versionId },
              upload,
              refHeader(o.refText),
            ),
          );
        },
      );
  },
};
