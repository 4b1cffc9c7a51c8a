import { core } from './0001-core.js';
import { avatars } from './0002-avatars.js';
import { sessions } from './0003-sessions.js';
import { inference } from './0004-inference.js';
import { tools } from './0005-tools.js';
import { toolUsage } from './0006-tool-usage.js';

import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** Numbered migrations; a resource adds its file and one entry here. Never edit a shipped one. */
export const migrations: Migration[] = [core];
migrations.push(sessions);
migrations.push(avatars);
migrations.push(inference);
migrations.push(tools);
migrations.push(toolUsage);
