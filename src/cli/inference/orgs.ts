/** `avatar orgs tokens create|list|revoke`, `avatar orgs usage` (spec 4.12). */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { defineCommand, type OptionsOf } from '../define.js';
import { renderTable } from '../output.js';
import { inference, orgId } from './inference-common.js';

const orgsOptions = {
  org: { flags: '--org <id>', description: "organisation id (default: the key's own)" },
} as const;

/** The organisation: `avatar orgs --org ID ...`, else the key's own. */
const org = (cli: CliContext, command: Command) =>
  orgId(cli, command.optsWithGlobals<OptionsOf<typeof orgsOptions>>().org);

/** `avatar orgs`: the group word takes --org; its verbs below. */
export const orgsCommand = defineCommand({
  name: 'orgs',
  summary: 'organisation tokens and usage  [/api/organizations]',
  options: orgsOptions,
  commands: [
    defineCommand({
      name: 'tokens',
      summary: 'inference tokens of the organisation',
      commands: [
        defineCommand({
          name: 'create',
          summary: 'Create a token; its secret is shown once',
          options: {
            name: { flags: '--name <name>', description: 'token name', required: true },
            scope: {
              flags: '--scope <scope...>',
              description: 'user:read, user:write, admin:read, admin:write',
              default: ['user:read', 'user:write'],
            },
          },
          async run({ options: o, cli, command }) {
            const r = await inference(cli).createOrgToken(await org(cli, command), {
              name: o.name,
              scopes: o.scope,
            });
            cli.print(
              r,
              () =>
                `created ${r.token.name} (${r.token.id}) scopes ${r.token.scopes.join(' ')}\nsecret (shown once): ${r.secret}`,
            );
          },
        }),
        defineCommand({
          name: 'list',
          summary: 'List tokens (never their secrets)',
          run: async ({ cli, command }) =>
            cli.print(await inference(cli).orgTokens(await org(cli, command))),
        }),
        defineCommand({
          name: 'revoke',
          summary: 'Revoke a token at once',
          args: { tokenId: '<tokenId>' },
          run: async ({ args: { tokenId }, cli, command }) =>
            cli.print(await inference(cli).revokeOrgToken(await org(cli, command), tokenId)),
        }),
      ],
    }),
    defineCommand({
      name: 'usage',
      summary: 'Usage aggregates: totals, per model, per day',
      options: {
        start: {
          flags: '--start <unixSeconds>',
          description: 'window start (default: 30 days before --end)',
        },
        end: {
          flags: '--end <unixSeconds>',
          description: "window end (default: the service's now)",
        },
      },
      async run({ options: o, cli, command }) {
        const q = {
          ...(o.start ? { start: Number(o.start) } : {}),
          ...(o.end ? { end: Number(o.end) } : {}),
        };
        const r = await inference(cli).usage(await org(cli, command), q);
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
      },
    }),
  ],
});
