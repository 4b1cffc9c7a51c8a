/** The command groups of src/cli/generations/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { generationCommands } from './generations.js';

export const groups = [
  defineGroup({
    name: 'speak',
    section: SECTION.generations,
    rank: 21,
    description: 'text + face + voice -> a lip-synced MP4 (/api/v1/speak)',
    commands: [generationCommands],
  }),
  defineGroup({
    name: 'design',
    section: SECTION.generations,
    rank: 22,
    description: 'a voice described in words -> new audio (/api/v1/design)',
    commands: [generationCommands],
  }),
  defineGroup({
    name: 'prebuild',
    section: SECTION.generations,
    rank: 23,
    description: "warm a version's idle loop on every box (/api/v1/prebuild)",
    commands: [generationCommands],
  }),
  defineGroup({
    name: 'generations',
    section: SECTION.generations,
    rank: 24,
    description: 'one-shot generations (/api/v1/speak, design, prebuild)',
    commands: [generationCommands],
  }),
];
