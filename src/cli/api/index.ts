/** The command groups of src/cli/api/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { apiCommand } from './api.js';

export const groups = [
  defineGroup({
    name: 'api',
    section: SECTION.more,
    rank: 38,
    description: 'call any route: avatar api GET /api/v1/workspaces',
    commands: [apiCommand],
  }),
];
