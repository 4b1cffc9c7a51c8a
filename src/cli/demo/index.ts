/** The command groups of src/cli/demo/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { demoCommands } from './demo.js';

export const groups = [
  defineGroup({
    name: 'demo',
    section: SECTION.start,
    rank: 1,
    description: 'a first conversation: ask a question, save the reply video',
    commands: [demoCommands],
  }),
];
