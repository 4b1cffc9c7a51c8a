/** The command groups of src/cli/emulator/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { emulatorCommands } from './emulator.js';
import { triggerCommands } from './trigger.js';

export const groups = [
  defineGroup({
    name: 'emulator',
    section: SECTION.start,
    rank: 0,
    description: 'run the local, offline emulator of the whole service',
    commands: [emulatorCommands],
  }),
  defineGroup({
    name: 'trigger',
    section: SECTION.more,
    rank: 41,
    description: 'make the emulator do what a real situation would',
    commands: [triggerCommands],
  }),
];
