/** The command groups of src/cli/completion/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { completionCommands } from './completion.js';

export const groups = [
  defineGroup({
    name: 'completion',
    section: SECTION.start,
    rank: 4,
    description: 'shell completion for bash, zsh or fish',
    wholeTree: true,
    commands: [completionCommands],
  }),
];
