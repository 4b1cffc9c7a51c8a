/**
 * `avatar hooks serve`: a local tenant hook (spec 6.2, 5.7). It checks
 * `Authorization: Bearer <tok>` in constant time (401 otherwise) and, with --conv, the
 * envelope's `conv` (403 otherwise); answers `session_start` (with --turn-seq-base),
 * `turn_committed` and `session_end` with `{ ok: true }`, and `tool_call` from a handler
 * file; and prints every op (one JSON line each with --json). Runs until Ctrl-C.
 *
 * Handler file: `.json` maps tool names to results (`"*"` for any tool), for instance
 * `{ "lookup_order": { "kind": "tool", "text": "It ships tomorrow." } }`; `.js`/`.mjs`
 * default-exports `(call) => result` (sync or async), where `call` is the whole envelope
 * (`tool`, `args`, `history`, ...). A result is wrapped as `{ ok: true, status: done,
 * result }`; a throw or a missing tool answers `{ ok: false, error }`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { parsePort } from '../sessions/webhooks-listen.js';
import { sameSecret } from '../../server/safe-equal.js';

const MAX_BODY_BYTES = 1024 * 1024;
type Handler = (call: Record<string, unknown>) => unknown;

/** Constant-time bearer check (spec 5.7): both sides hashed, so lengths never leak either. */
export function bearerMatches(header: string | undefined, tok: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1] ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(tok).digest();
  return sameSecret(a, b) && given.length > 0;
}

export async function loadHandler(cli: CliContext, file: string | undefined): Promise<Handler> {
  if (!file)
    return (call) => ({
      kind: 'tool',
      text: `${String(call.tool)} called with ${JSON.stringify(call.args ?? {})}`,
    });
  const path = resolve(cli.io.cwd, file);
  if (/\.(m?js|cjs)$/.test(path)) {
    let mod: { default?: unknown };
    try {
      mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
    } catch (e) {
      throw new CliError(`cannot load ${file}: ${(e as Error).message}`, ExitCode.usage);
    }
    if (typeof mod.default !== 'function')
      throw new CliError(`${file} must default-export a function (call) => result`, ExitCode.usage);
    return mod.default as Handler;
  }
  let table: Record<string, unknown>;
  try {
    table = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new CliError(`cannot read ${file} as JSON: ${(e as Error).message}`, ExitCode.usage);
  }
  if (!table || typeof table !== 'object' || Array.isArray(table))
    throw new CliError(`${file} must be a JSON object of tool name to result`, ExitCode.usage);
  return (call) => {
    const r = table[String(call.tool)] ?? table['*'];
    if (r === undefined) throw new Error(`no handler for tool ${String(call.tool)}`);
    return r;
  };
}

export async function serveHooks(
  cli: CliContext,
  o: {
    port: number;
    host: string;
    tok: string;
    conv?: string;
    handler?: string;
    turnSeqBase?: number;
  },
): Promise<void> {
  const handler = await loadHandler(cli, o.handler);
  const json = !!cli.globals().json;
  const show = (line: Record<string, unknown>, human: string) =>
    cli.io.stdout.write(json ? JSON.stringify(line) + '\n' : human + '\n');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      (async () => {
        const send = (status: number, body: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (size > MAX_BODY_BYTES) return send(413, { ok: false, error: 'payload_too_large' });
        if (!bearerMatches(req.headers.authorization, o.tok)) {
          show(
            { op: null, refused: 'bad_bearer' },
            `${new Date().toISOString()} refused: missing or wrong bearer`,
          );
          return send(401, { ok: false, error: 'unauthorized' });
        }
        let env: Record<string, unknown>;
        try {
          env = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          if (!env || typeof env !== 'object' || Array.isArray(env))
            throw new Error('not an object');
        } catch {
          return send(400, { ok: false, error: 'invalid_json' });
        }
        if (o.conv !== undefined && env.conv !== o.conv) {
          show(
            { op: env.op, refused: 'conv_mismatch', conv: env.conv },
            `${new Date().toISOString()} refused ${String(env.op)}: conv ${String(env.conv)} is not ${o.conv}`,
          );
          return send(403, { ok: false, error: 'conv_mismatch' });
        }
        const head = `${new Date().toISOString()} ${String(env.op)} conv=${String(env.conv)} sid=${String(env.sid)}`;
        if (env.op !== 'tool_call') {
          const answer =
            env.op === 'session_start' && o.turnSeqBase !== undefined
              ? { ok: true, turn_seq_base: o.turnSeqBase }
              : { ok: true };
          const extra =
            env.op === 'turn_committed'
              ? ` seq=${String(env.seq)} user=${JSON.stringify(env.user)} reply=${JSON.stringify(env.reply)}`
              : '';
          show({ ...env, answer }, head + extra);
          return send(200, answer);
        }
        let answer: Record<string, unknown>;
        try {
          const result = await handler(env);
          if (!result || typeof result !== 'object' || Array.isArray(result))
            throw new Error('the handler returned no result object');
          answer = { ok: true, status: 'done', result };
        } catch (e) {
          answer = { ok: false, error: (e as Error).message.slice(0, 300) };
        }
        show(
          { ...env, answer },
          `${head} tool=${String(env.tool)} args=${JSON.stringify(env.args)} -> ${JSON.stringify(answer)}`,
        );
        send(200, answer);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((res, rej) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      rej(
        new CliError(
          `cannot listen on ${o.host}:${o.port}: ${err.code ?? err.message}`,
          ExitCode.usage,
        ),
      ),
    );
    server.listen(o.port, o.host, () => res());
  });
  const { port } = server.address() as AddressInfo;
  // Always on stderr (also with --json, whose stdout carries one line per op): the URL to mint with.
  cli.io.stderr.write(
    `hook listening on http://${o.host}:${port}/ (Ctrl-C stops it)\n(mint with agent.hook set to this URL; an emulator posts to plain http only with --allow-insecure-urls)\n`,
  );
  await new Promise<void>((res) => {
    const off = cli.onInterrupt(() => {
      off();
      server.close(() => res());
      server.closeAllConnections();
    });
  });
}

export const hooksCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const hooks =
      (program.commands.find((c) => c.name() === 'hooks') as Command | undefined) ??
      program.command('hooks').description('a local tenant hook');
    hooks
      .command('serve')
      .description(
        'run a local tenant hook: check the bearer, answer tool calls from a handler file, print every op; runs until Ctrl-C',
      )
      .requiredOption(
        '--tok <token>',
        'the bearer the service must present (the agent.tok you mint with)',
      )
      .option(
        '--handler <file>',
        'tool handler: .json (tool name -> result, "*" for any) or .js/.mjs (default export (call) => result)',
      )
      .option('--conv <conv>', 'refuse ops whose conv is not this one (403)')
      .option('--turn-seq-base <n>', 'answer session_start with this turn_seq_base')
      .option('--port <port>', 'port to listen on (0: any free port)', '0')
      .option('--host <host>', 'interface', '127.0.0.1')
      .action(
        async (o: {
          tok: string;
          handler?: string;
          conv?: string;
          turnSeqBase?: string;
          port: string;
          host: string;
        }) => {
          let base: number | undefined;
          if (o.turnSeqBase !== undefined) {
            base = Number(o.turnSeqBase);
            if (!Number.isInteger(base))
              throw new CliError(
                `--turn-seq-base must be an integer, got ${o.turnSeqBase}`,
                ExitCode.usage,
              );
          }
          await serveHooks(cli, {
            port: parsePort(o.port),
            host: o.host,
            tok: o.tok,
            ...(o.conv !== undefined ? { conv: o.conv } : {}),
            ...(o.handler ? { handler: o.handler } : {}),
            ...(base !== undefined ? { turnSeqBase: base } : {}),
          });
        },
      );
  },
};
