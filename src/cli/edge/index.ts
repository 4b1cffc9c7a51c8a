/** The command groups of src/cli/edge/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { edgeCommands } from './edge.js';

export const groups = [
  defineGroup({
    name: 'edge',
    section: SECTION.more,
    rank: 39,
    description: 'run an edge box in its own process (avatar edge start)',
    commands: [edgeCommands],
  }),
];
