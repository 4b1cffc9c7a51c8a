/**
 * `avatar mcp disable <serverId>` and `avatar builtins enable|disable <key>` (spec 4.11).
 * The other verbs (`mcp add|list|get|refresh|rm`, `builtins list`) are generated from the
 * operation table (src/contract/operations/tools.ts).
 */
import { groupCommand } from '../define.js';
import type { CommandModule } from '../context.js';

const serverLine = (b: unknown) => {
  const s = b as {
    id: string;
    name: string;
    status: string;
    tools: { name: string }[];
    last_error?: string;
  };
  return `${s.id}  ${s.name}  ${s.status}  ${s.tools.map((t) => t.name).join(', ') || '(no tools)'}${s.last_error ? `\n  last_error: ${s.last_error}` : ''}`;
};

export const toolServerCommands: CommandModule = {
  register(program, cli) {
    const mcp = groupCommand(
      program,
      'mcp',
      'MCP servers of the workspace (/api/v1/workspaces/{wsId}/mcp-servers)',
    );
    mcp
      .command('disable')
      .description(
        'disable an MCP server (PATCH { status: disabled }); sessions minted later cannot use it',
      )
      .argument('<serverId>', 'mcps_... id')
      .action(async (serverId: string) => {
        const { patchMcpServer } = await import('../../contract/operations/tools.js');
        const r = await cli.client().call(patchMcpServer, {
          params: { wsId: await cli.workspace(), serverId },
          body: { status: 'disabled' },
        });
        cli.print(r.body, serverLine);
      });
    const builtins = groupCommand(
      program,
      'builtins',
      'built-in tool servers (/api/v1/workspaces/{wsId}/builtin-servers)',
    );
    for (const [verb, enabled] of [
      ['enable', true],
      ['disable', false],
    ] as const) {
      builtins
        .command(verb)
        .description(`${verb} a built-in server for the workspace (svc.image)`)
        .argument('<key>', 'built-in server key, for instance svc.image')
        .action(async (key: string) => {
          const { putBuiltinServer } = await import('../../contract/operations/tools.js');
          const r = await cli.client().call(putBuiltinServer, {
            params: { wsId: await cli.workspace(), serverKey: key },
            body: { enabled },
          });
          cli.print(r.body, (b) => {
            const s = b as { key: string; enabled: boolean; tools: { name: string }[] };
            return `${s.key}  ${s.enabled ? 'enabled' : 'disabled'}  ${s.tools.map((t) => t.name).join(', ')}`;
          });
        });
    }
  },
};
