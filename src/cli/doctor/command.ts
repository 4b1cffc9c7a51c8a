/**
 * `avatar doctor` (issue 31 item 6): is this deployment what the contract says? Read-only
 * probes of every GET the key may call, judged against the contract (probes.ts, checks.ts);
 * `--live` adds one session per wire protocol. Exit 7 on any mismatch (docs/cli.md).
 */
import type { CommandModule } from '../context.js';

const EXAMPLES = `
Checks: the OpenAPI and AsyncAPI documents, the gallery, JWKS and every GET the
key may call (path ids taken from the list one level up); each answer's status,
error envelope, fields and types against the contract. --live also mints one
session per protocol (v1, v2), sends one typed turn, judges every frame, and
releases it.

Exit codes: 0 all match, 7 a mismatch (the table names its JSON path),
3 the key was refused, 5 the service cannot be reached (or the URL is not it).

Examples:
  $ avatar doctor                           # the running local emulator
  $ AVATAR_API_KEY=avatar_... avatar doctor --base-url https://api.example.com
  $ avatar doctor --live --json | jq '.checks[] | select(.result == "fail")'`;

export const doctorCommand: CommandModule = {
  register(program, cli) {
    const cmd = program
      .command('doctor')
      .description(
        'Check a deployment against the contract: every GET, and with --live the sockets',
      )
      .option('--live', 'also mint one session per protocol, send one typed turn, release it')
      .option('--say <text>', 'the typed turn of --live', 'Hello, who are you?')
      .option('--timeout <s>', "seconds to wait for --live's turn, per protocol", '30')
      .addHelpText('after', EXAMPLES);
    cmd.action(async () => {
      const { runDoctor } = await import('./run.js');
      await runDoctor(cli, cmd.opts());
    });
  },
};
