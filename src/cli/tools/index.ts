/** The command groups of src/cli/tools/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { toolsCommands } from './tools.js';
import { toolServerCommands } from './tool-servers.js';

export const groups = [
  defineGroup({
    name: 'tools',
    section: SECTION.control,
    rank: 17,
    description: 'tools objects: validate locally with the service validator',
    commands: [toolsCommands],
  }),
  defineGroup({
    name: 'mcp',
    section: SECTION.control,
    rank: 18,
    description: 'MCP servers (/api/v1/workspaces/{wsId}/mcp-servers)',
    commands: [toolServerCommands],
  }),
  defineGroup({
    name: 'builtins',
    section: SECTION.control,
    rank: 19,
    description: 'built-in tool servers (svc.image)',
    commands: [toolServerCommands],
  }),
];
