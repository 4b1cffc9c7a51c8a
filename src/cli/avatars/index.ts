/** The command groups of src/cli/avatars/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { avatarCommands } from './avatars.js';

export const groups = [
  defineGroup({
    name: 'avatars',
    section: SECTION.control,
    rank: 5,
    description: 'avatars (/api/v1/avatars...)',
    commands: [avatarCommands],
  }),
  defineGroup({
    name: 'versions',
    section: SECTION.control,
    rank: 6,
    description: 'avatar versions (/api/v1/avatars/{avatarId}/versions...)',
    commands: [avatarCommands],
  }),
  defineGroup({
    name: 'voices',
    section: SECTION.control,
    rank: 7,
    description: 'voices (/api/v1/voices...)',
    commands: [avatarCommands],
  }),
];
