import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { readData } from '../read-data.js';

export const apiCommand: CommandModule = {
  register(program: Command, cli: CliContext) {
    program
      .command('api')
      .description(
        'call any route: avatar api GET /api/v1/workspaces, avatar api POST /api/v1/tokens --data \'{"name":"ci"}\'',
      )
      .argument('<method>', 'HTTP method')
      .argument('<path>', 'path, with query string if any')
      .option('--data <json|@file>', 'JSON body: inline, @file or @- for stdin')
      .option('-H, --header <header...>', 'extra header "Name: value"')
      .option('-i, --include', 'print the status line and headers to stderr')
      .action(
        async (
          method: string,
          path: string,
          opts: { data?: string; header?: string[]; include?: boolean },
        ) => {
          const m = method.toUpperCase();
          if (!/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(m))
            throw new CliError(`unknown method ${method}`, ExitCode.usage);
          const headers: Record<string, string> = {};
          for (const h of opts.header ?? []) {
            const i = h.indexOf(':');
            if (i < 1) throw new CliError(`bad header ${h} (want "Name: value")`, ExitCode.usage);
            headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
          }
          const body = opts.data !== undefined ? readData(opts.data, cli.io.cwd) : undefined;
          const res = await cli.client().raw(m, path, { body, headers });
          if (opts.include) {
            cli.io.stderr.write(`HTTP ${res.status}\n`);
            for (const [k, v] of Object.entries(res.headers)) cli.io.stderr.write(`${k}: ${v}\n`);
          }
          if (res.status >= 400) {
            const { ApiResponseError } = await import('../../client/client.js');
            throw new ApiResponseError(res.status, res.body, res.headers);
          }
          if (Buffer.isBuffer(res.body)) cli.io.stdout.write(res.body);
          else if (res.body !== undefined)
            cli.io.stdout.write(JSON.stringify(res.body, null, 2) + '\n');
        },
      );
  },
};
