/** The command groups of src/cli/smoke/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { smokeCommands } from './smoke.js';

export const groups = [
  defineGroup({
    name: 'smoke',
    section: SECTION.start,
    rank: 3,
    description: 'CI check of a deployment or the emulator, one line per step',
    commands: [smokeCommands],
  }),
];
