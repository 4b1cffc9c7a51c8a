/** `avatar orgs tokens create|list|revoke`, `avatar orgs usage` (spec 4.12). */
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { renderTable } from '../output.js';
import { group, inference, orgId } from './inference-common.js';

export const orgsCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const orgs = group(program, 'orgs', 'organisation tokens and usage  [/api/organizations]');
    orgs.option('--org <id>', "organisation id (default: the key's own)");
    const org = () => orgId(cli, (orgs.opts() as { org?: string }).org);
    const tokens = orgs.command('tokens').description('inference tokens of the organisation');
    tokens
      .command('create')
      .description('Create a token; its secret is shown once')
      .requiredOption('--name <name>', 'token name')
      .option('--scope <scope...>', 'user:read, user:write, admin:read, admin:write', [
        'user:read',
        'user:write',
      ])
      .action(async (o: { name: string; scope: string[] }) => {
        const r = await inference(cli).createOrgToken(await org(), {
          name: o.name,
          scopes: o.scope,
        });
        cli.print(
          r,
          () =>
            `created ${r.token.name} (${r.token.id}) scopes ${r.token.scopes.join(' ')}\nsecret (shown once): ${r.secret}`,
        );
      });
    tokens
      .command('list')
      .description('List tokens (never their secrets)')
      .action(async () => cli.print(await inference(cli).orgTokens(await org())));
    tokens
      .command('revoke')
      .argument('<tokenId>')
      .description('Revoke a token at once')
      .action(async (id: string) =>
        cli.print(await inference(cli).revokeOrgToken(await org(), id)),
      );
    orgs
      .command('usage')
      .description('Usage aggregates: totals, per model, per day')
      .option('--start <unixSeconds>', 'window start (default: 30 days before --end)')
      .option('--end <unixSeconds>', "window end (default: the service's now)")
      .action(async (o: { start?: string; end?: string }) => {
        const q = {
          ...(o.start ? { start: Number(o.start) } : {}),
          ...(o.end ? { end: Number(o.end) } : {}),
        };
        const r = await inference(cli).usage(await org(), q);
        cli.print(r, () =>
          [
            `totals: ${r.totals.requests} requests (${r.totals.api_requests} API, ${r.totals.job_submissions} job submissions), ${r.totals.total_tokens} tokens, ${r.totals.audio_seconds} s audio, ${r.totals.images} images`,
            renderTable(
              r.by_model.map((m: Record<string, unknown>) => ({
                model: m.model_id,
                requests: m.requests,
                tokens: m.total_tokens,
                audio_s: m.audio_seconds,
                images: m.images,
              })),
            ),
          ].join('\n'),
        );
      });
  },
};
