/** The command groups of src/cli/load/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { loadTestCommands } from './load-test.js';

export const groups = [
  defineGroup({
    name: 'load-test',
    section: SECTION.more,
    rank: 40,
    description: 'N live sessions at once: p50/p95/p99; --slo for CI',
    commands: [loadTestCommands],
  }),
];
