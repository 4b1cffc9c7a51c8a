/** The command groups of src/cli/hooks/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { hooksCommands } from './hooks-serve.js';

export const groups = [
  defineGroup({
    name: 'hooks',
    section: SECTION.control,
    rank: 20,
    description: 'a local tenant hook: avatar hooks serve',
    commands: [hooksCommands],
  }),
];
