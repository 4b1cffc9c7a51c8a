import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { allowedHostsList, isLoopbackHost } from '../../contract/hosts.js';
import { allowedHostsProblem } from '../../emulator/option-limits.js';

/**
 * `avatar edge start --control-plane URL`: one edge box in this process (issue 8). It
 * authenticates to the control plane with a box credential: `AVATAR_BOX_ID` +
 * `AVATAR_BOX_SECRET` from the environment when set (a secret never goes in a flag: it
 * would show in `ps`), else it asks the emulator's operator route `POST /_emulator/boxes`
 * for a fresh one, presenting the configured key (`--api-key`, `AVATAR_API_KEY`, the profile,
 * or the running emulator's own key): a box credential is issued to the operator only
 * (docs/edge.md "Boxes in another process", docs/security.md).
 */
interface EdgeStartOpts {
  controlPlane: string;
  seats: string;
  protocols: string;
  customAvatars?: boolean;
  host: string;
  port: string;
  allowedHosts?: string;
  data?: string;
  asrUrl?: string;
  llmUrl?: string;
  llmModel?: string;
  ttsUrl?: string;
  json?: boolean;
}

const usage = (m: string) => new CliError(m, ExitCode.usage);

function parseOpts(o: EdgeStartOpts) {
  let cp: URL;
  try {
    cp = new URL(o.controlPlane);
  } catch {
    throw usage(
      `--control-plane takes the control plane's base URL, e.g. http://127.0.0.1:4780; got ${o.controlPlane}`,
    );
  }
  if (cp.protocol !== 'http:' && cp.protocol !== 'https:')
    throw usage('--control-plane must be an http(s) URL');
  const seats = Number(o.seats);
  if (!Number.isInteger(seats) || seats < 1 || seats > 10_000)
    throw usage(`--seats takes an integer from 1 to 10000; got ${o.seats}`);
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usage(`--port takes 0 to 65535; got ${o.port}`);
  const protocols = o.protocols.split(',').map((p) => Number(p.trim()));
  if (protocols.length === 0 || protocols.some((p) => p !== 1 && p !== 2))
    throw usage(`--protocols takes 1, 2 or 1,2; got ${o.protocols}`);
  const allowedHosts = allowedHostsList(o.allowedHosts);
  const bad = allowedHostsProblem(allowedHosts);
  if (bad) throw usage(bad.replace(/^allowedHosts/, '--allowed-hosts'));
  return { cp: cp.origin, seats, port, protocols: [...new Set(protocols)], allowedHosts };
}

async function credential(cli: CliContext, cp: string): Promise<{ boxId: string; secret: string }> {
  const env = cli.io.env;
  if (env.AVATAR_BOX_ID && env.AVATAR_BOX_SECRET)
    return { boxId: env.AVATAR_BOX_ID, secret: env.AVATAR_BOX_SECRET };
  if (env.AVATAR_BOX_ID || env.AVATAR_BOX_SECRET)
    throw usage(
      'set both AVATAR_BOX_ID and AVATAR_BOX_SECRET, or neither (to get a credential from the emulator)',
    );
  const { resolveConnection } = await import('../config.js');
  const key = resolveConnection({ ...cli.globals(), baseUrl: cp }, env, cli.io.cwd)?.apiKey;
  if (!key) {
    throw usage(
      `a box credential is issued to the emulator's operator only: pass --api-key (or set AVATAR_API_KEY) to the emulator's secret key or operator token, or set AVATAR_BOX_ID and AVATAR_BOX_SECRET`,
    );
  }
  const { boxCredential } = await import('../../contract/operations/operator.js');
  let res: Response;
  try {
    res = await fetch(`${cp}${boxCredential.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
  } catch (e) {
    // fetch says only "fetch failed"; the reason is its cause (ECONNREFUSED, ENOTFOUND, bad port).
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new CliError(
      `cannot reach the control plane at ${cp} (${why}); is the emulator running? (avatar emulator start)`,
      ExitCode.network,
    );
  }
  if (res.status === 401) {
    throw new CliError(
      `the control plane at ${cp} refused the key as operator credential (401): use the emulator's secret key or operator token (printed at its start)`,
      ExitCode.apiClientError,
    );
  }
  if (res.status !== 201)
    throw new CliError(
      `the control plane at ${cp} issued no box credential (POST /_emulator/boxes answered ${res.status}); set AVATAR_BOX_ID and AVATAR_BOX_SECRET`,
      ExitCode.network,
    );
  const b = (await res.json()) as { box_id: string; secret: string };
  return { boxId: b.box_id, secret: b.secret };
}

async function start(cli: CliContext, o: EdgeStartOpts): Promise<void> {
  const p = parseOpts(o);
  const { boxId, secret } = await credential(cli, p.cp);
  const [{ startBox }, { defaultParts }, { join, resolve }] = await Promise.all([
    import('../../edge/box/box.js'),
    import('../../edge/default-parts.js'),
    import('node:path'),
  ]);
  const parts = await defaultParts({
    asrUrl: o.asrUrl ?? null,
    llmUrl: o.llmUrl ?? null,
    llmModel: o.llmModel ?? null,
    llmApiKey: cli.io.env.AVATAR_LLM_API_KEY ?? null,
    ttsUrl: o.ttsUrl ?? null,
    ttsApiKey: cli.io.env.AVATAR_TTS_API_KEY ?? null,
  }).catch((e: Error) => {
    throw usage(e.message);
  });
  let box;
  try {
    box = await startBox({
      controlPlaneUrl: p.cp,
      boxId,
      secret,
      seats: p.seats,
      protocols: p.protocols,
      customAvatars: !!o.customAvatars,
      verified: !!o.customAvatars,
      host: o.host,
      port: p.port,
      allowedHosts: p.allowedHosts,
      parts,
      captureRoot: o.data ? join(resolve(o.data), 'captures') : null,
      log: (line) => cli.io.stderr.write(`[edge ${boxId}] ${line}\n`),
    });
  } catch (e) {
    throw new CliError(`the box could not start: ${(e as Error).message}`, ExitCode.network);
  }
  const stopped = new Promise<void>((res) => {
    const off = cli.onInterrupt(() => {
      off();
      res();
    });
  });
  if (o.json)
    cli.io.stdout.write(
      JSON.stringify({
        box_id: boxId,
        base_url: box.baseUrl,
        control_plane: p.cp,
        seats: p.seats,
        protocols: p.protocols,
      }) + '\n',
    );
  else {
    // Captures of a box in its own process stay in its --data dir (docs/edge.md "Recording"):
    // the operator learns here where to look, or that there will be none.
    const captures = o.data
      ? `${join(resolve(o.data), 'captures')}/<session_id>/`
      : 'none (recording: true needs --data DIR)';
    cli.io.stdout.write(
      `avatar edge box ${boxId} listening on ${box.baseUrl}\n  control plane  ${p.cp}\n  seats          ${p.seats}\n  protocols      ${p.protocols.join(',')}\n` +
        `  custom avatars ${o.customAvatars ? 'yes' : 'no'}\n  captures       ${captures}\n` +
        (isLoopbackHost(o.host)
          ? ''
          : `  WARNING        listening on ${o.host}, not loopback: this box is\n                 reachable from the network (docs/security.md)\n`) +
        'Ctrl-C stops it (its sessions end).\n',
    );
  }
  await stopped;
  await box.stop();
  if (!o.json) cli.io.stdout.write(`edge box ${boxId} stopped: deregistered, its sessions ended\n`);
}

export const edgeCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const group = program
      .command('edge')
      .description('run an edge box (live sessions over WebSockets) against a control plane');
    const cmd = group
      .command('start')
      .description('start one edge box in this process and register it with the control plane')
      .requiredOption(
        '--control-plane <url>',
        'base URL of the control plane (the emulator), e.g. http://127.0.0.1:4780',
      )
      .option('--seats <n>', 'seats of this box', '4')
      .option('--protocols <list>', 'wire protocols spoken: 1, 2 or 1,2', '1,2')
      .option(
        '--custom-avatars',
        'render custom (tenant) avatars (the box is then verified for them)',
      )
      .option('--host <addr>', 'address to listen on', '127.0.0.1')
      .option('--port <n>', 'TCP port (0 picks a free one)', '0')
      .option(
        '--allowed-hosts <names>',
        'Host names served besides localhost, 127.0.0.1, [::1] and the bound address, comma-separated (docs/security.md)',
      )
      .option(
        '--data <dir>',
        'where recording: true sessions are captured (<dir>/captures/<session_id>/)',
      )
      .option(
        '--asr-url <url>',
        'OpenAI-compatible /audio/transcriptions base URL for speech recognition (key from AVATAR_ASR_API_KEY)',
      )
      .option(
        '--llm-url <url>',
        'OpenAI-compatible chat base URL for the brain (key from AVATAR_LLM_API_KEY)',
      )
      .option('--llm-model <name>', 'model name sent to --llm-url')
      .option(
        '--tts-url <url>',
        'OpenAI-compatible /audio/speech base URL every reply is spoken by (key from AVATAR_TTS_API_KEY; a failed call falls back to the local voice)',
      )
      .option('--json', 'print one JSON line {box_id, base_url, ...} when ready');
    cmd.action(async () =>
      start(cli, { ...(cmd.opts() as EdgeStartOpts), json: cmd.opts().json || cli.globals().json }),
    );
  },
};
