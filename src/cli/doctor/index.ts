/** The command groups of src/cli/doctor/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { doctorCommand } from './command.js';

export const groups = [
  defineGroup({
    name: 'doctor',
    section: SECTION.start,
    rank: 3.5,
    description: 'check every answer of a deployment against the contract',
    commands: [doctorCommand],
  }),
];
