/** The command groups of src/cli/config/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { configCommands } from './config.js';

export const groups = [
  defineGroup({
    name: 'config',
    section: SECTION.start,
    rank: 2,
    description: 'named connection profiles (stored under the XDG config dir)',
    commands: configCommands,
  }),
];
