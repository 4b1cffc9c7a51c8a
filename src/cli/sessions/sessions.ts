/**
 * Hand-written session and webhook commands (issue 4): `avatar sessions mint` waits
 * through the queue by itself, `avatar sessions queue status|cancel`, and `avatar webhooks
 * listen`, a local receiver that verifies signatures. The other session and webhook
 * commands are generated from the operation table.
 */
import { Option, type Command } from 'commander';
import { manifestEntry } from '../command-manifest.js';
import type { CliContext, CommandModule } from '../context.js';
import { addCommand, defineCommand, groupCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { addFieldOption } from '../generated.js';
import { bodyIssueText } from '../body-issue.js';
import { readData } from '../read-data.js';
import { coerce } from '../schema-flags.js';
import { queueStatusLine } from '../live/queue-line.js';
import { listenForWebhooks, parsePort } from './webhooks-listen.js';

const optKey = (flag: string) => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Every mint field as a flag (`--persona`, `--session-cap-seconds <seconds>`, ...) plus
 * `--data` (`--body`, its old name, still works, hidden); shared with `sessions live` and `demo`.
 */
export function addMintOptions(cmd: Command): Command {
  // From the manifest (the mint operation's body), so help loads no schema.
  for (const f of manifestEntry('sessions.mint').body ?? [])
    addFieldOption(cmd, { ...f, required: false });
  cmd.option(
    '--data <json|@file>',
    'whole mint body as JSON: inline, @file or @- for stdin; flags override its fields',
  );
  return cmd.addOption(new Option('--body <json|@file>', 'old name of --data').hideHelp());
}

/** The mint body from `--data` and the mint flags, checked against the schema (usage error naming the flag). */
export async function mintBodyFromOptions(
  opts: Record<string, unknown>,
  cli: CliContext,
): Promise<Record<string, unknown>> {
  const [{ MintSessionBody }, { flagsOf }] = await Promise.all([
    import('../../contract/resources/session.js'),
    import('../schema-flags.js'),
  ]);
  const flags = flagsOf(MintSessionBody);
  const given =
    typeof opts.data === 'string'
      ? { v: opts.data, flag: '--data' }
      : typeof opts.body === 'string'
        ? { v: opts.body, flag: '--body' }
        : null;
  // --body once took a bare file name; --data, like every body command, takes JSON or @file.
  const text =
    given && given.flag === '--body' && !given.v.startsWith('@') && !given.v.trim().startsWith('{')
      ? `@${given.v}`
      : given?.v;
  const raw = text !== undefined ? readData(text, cli.io.cwd, given!.flag) : {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new CliError(`${given!.flag} must be a JSON object (the mint body)`, ExitCode.usage);
  const body: Record<string, unknown> = { ...(raw as object) };
  for (const f of flags) {
    const v = opts[optKey(f.flag)];
    if (v === undefined) continue;
    try {
      body[f.field] =
        f.kind === 'json' && !String(v).startsWith('@')
          ? jsonOrText(String(v), f.flag)
          : coerce(f, v, cli.io.cwd);
    } catch (e) {
      throw new CliError((e as Error).message, ExitCode.usage);
    }
  }
  const check = MintSessionBody.safeParse(body);
  if (!check.success) {
    throw new CliError(bodyIssueText(check.error.issues[0]!, body, flags, 'mint'), ExitCode.usage);
  }
  return body;
}

function registerMint(sessions: Command, cli: CliContext): void {
  const cmd = sessions
    .command('mint')
    .description(
      'Mint a live session; waits through the queue (position and ETA live), claims at once when claimable  [POST /api/v1/sessions]',
    );
  addMintOptions(cmd);
  cmd.option('--no-wait', 'return the 202 instead of waiting in the queue');
  cmd.action(async () => {
    const opts = cmd.opts<Record<string, unknown>>();
    const body = await mintBodyFromOptions(opts, cli);
    const { mintAndWait } = await import('../../client/mint-queue.js');
    const ctrl = new AbortController();
    const off = cli.onInterrupt(() =>
      ctrl.abort(new CliError('interrupted: queue ticket cancelled', ExitCode.interrupted)),
    );
    const status = queueStatusLine(cli);
    const noWait = opts.wait === false;
    try {
      const res = await mintAndWait(cli.client(), body, {
        signal: ctrl.signal,
        noWait,
        // --no-wait returns at once: no "Ctrl-C leaves the queue", but how to keep the place.
        onQueued: (q) =>
          noWait
            ? cli.note(
                `queued: keep the place by polling: avatar sessions queue status ${q.queue_ticket}`,
              )
            : status.show(q),
      });
      status.done(res.status === 201 ? 'seated' : null);
      cli.print(res.body);
    } catch (err) {
      status.done(null);
      if (ctrl.signal.aborted) throw ctrl.signal.reason;
      throw err;
    } finally {
      off();
    }
  });
}

/** What a flag's JSON looks like, for the error when it does not parse. */
const JSON_EXAMPLES: Record<string, string> = {
  config: `'{"render": false}'`,
  context: `'{"system_prompt": "Be brief."}'`,
  metadata: `'{"user": "u-42"}'`,
};

/**
 * JSON when it parses, else the text itself (`--response-language en`, `--session-cap-seconds
 * 120`). Text that opens like JSON (`{` or `[`) but does not parse is a typo in the JSON
 * (`--config '{render: false}'`): a usage error here, not a string the service refuses.
 */
function jsonOrText(v: string, flag: string): unknown {
  try {
    return JSON.parse(v);
  } catch (e) {
    if (!/^\s*[[{]/.test(v)) return v;
    const shown = v.length > 60 ? `${v.slice(0, 60)}…` : v;
    const example = JSON_EXAMPLES[flag] ?? `'{"key": "value"}'`;
    throw new Error(
      `--${flag} is not valid JSON (${(e as Error).message}): ${shown}; quote keys and strings, e.g. --${flag} ${example} (or @file)`,
    );
  }
}

const ws = (workspaceId: string | undefined) => (workspaceId ? { workspace_id: workspaceId } : {});

/** `avatar sessions queue status|cancel`. */
const queueCommand = defineCommand({
  name: 'queue',
  summary: 'queue tickets: status (a pure read), cancel',
  commands: [
    defineCommand({
      name: 'status',
      summary:
        'state, position and ETA of a ticket (always answers; expired when unknown)  [GET /api/v1/sessions/queue/{ticket}]',
      args: { ticket: '<ticket>' },
      options: {
        workspaceId: {
          flags: '--workspace-id <id>',
          description:
            'when the key is not workspace-bound (required with --id-token; default AVATAR_WORKSPACE_ID)',
        },
        idToken: {
          flags: '--id-token <jwt>',
          description: "read with a trusted issuer's id_token instead of the API key (spec 5.6)",
        },
      },
      async run({ args: { ticket }, options: o, cli }) {
        const { queueStatus } = await import('../../contract/operations/sessions.js');
        if (o.idToken) {
          // spec 4.5: an id_token names no workspace; the query must.
          const workspaceId = o.workspaceId ?? cli.connection().workspaceId ?? undefined;
          const client = cli.client({ apiKey: o.idToken });
          cli.print(
            (await client.call(queueStatus, { params: { ticket }, query: ws(workspaceId) })).body,
          );
          return;
        }
        cli.print(
          (await cli.client().call(queueStatus, { params: { ticket }, query: ws(o.workspaceId) }))
            .body,
        );
      },
    }),
    defineCommand({
      name: 'cancel',
      summary:
        'leave the queue (a reserved seat passes to the next waiter)  [DELETE /api/v1/sessions/queue/{ticket}]',
      args: { ticket: '<ticket>' },
      options: {
        workspaceId: {
          flags: '--workspace-id <id>',
          description: 'when the key is not workspace-bound',
        },
      },
      async run({ args: { ticket }, options: o, cli }) {
        const { queueCancel } = await import('../../contract/operations/sessions.js');
        await cli.client().call(queueCancel, { params: { ticket }, query: ws(o.workspaceId) });
        if (!cli.globals().json) cli.io.stdout.write('ok\n');
      },
    }),
  ],
});

/** `avatar webhooks listen`: a local receiver that verifies signatures. */
const listenCommand = defineCommand({
  name: 'listen',
  summary:
    'run a local receiver: verify x-signature-256 and print each delivery; runs until Ctrl-C, then exits 0',
  options: {
    port: {
      flags: '--port <port>',
      description: 'port to listen on (0: any free port)',
      default: '0',
    },
    host: { flags: '--host <host>', description: 'interface', default: '127.0.0.1' },
    secret: {
      flags: '--secret <secret>',
      description:
        'signing secret to verify: the endpoint secret (16 to 256 characters) or notify.secret; unsigned or badly signed deliveries then get 401',
    },
  },
  run: ({ options: o, cli }) =>
    listenForWebhooks(cli, { port: parsePort(o.port), host: o.host, secret: o.secret }),
});

export const sessionCommands: CommandModule = {
  register(program, cli) {
    const sessions = groupCommand(
      program,
      'sessions',
      'live sessions and the queue (/api/v1/sessions)',
    );
    registerMint(sessions, cli);
    addCommand(sessions, queueCommand, cli);
    const webhooks = groupCommand(
      program,
      'webhooks',
      'webhook endpoints (/api/v1/workspaces/{wsId}/webhooks)',
    );
    addCommand(webhooks, listenCommand, cli);
  },
};
