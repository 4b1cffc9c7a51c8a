/** The command groups of src/cli/sessions/ and src/cli/live/ (the registry reads `groups`: src/cli/groups.ts). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';
import { liveCommands } from '../live/live.js';
import { sessionCommands } from './sessions.js';
import { recordingCommands } from './recordings.js';
import { replayCommands } from './replay.js';

export const groups = [
  defineGroup({
    name: 'sessions',
    section: SECTION.control,
    rank: 9,
    description: 'live sessions and the queue (/api/v1/sessions)',
    commands: [sessionCommands, liveCommands, ...recordingCommands, ...replayCommands],
  }),
  defineGroup({
    name: 'webhooks',
    section: SECTION.control,
    rank: 10,
    description: 'webhook endpoints (/api/v1/workspaces/{wsId}/webhooks)',
    commands: [sessionCommands],
  }),
];
