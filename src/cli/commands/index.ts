import type { CommandModule } from '../context.js';
import { apiCommand } from './api.js';
import { sessionCommands } from './sessions.js';
import { avatarCommands } from './avatars.js';
import { toolsCommands } from './tools.js';
import { configCommands } from './config.js';
import { emulatorCommands } from './emulator.js';
import { liveCommands } from './live.js';
import { smokeCommands } from './smoke.js';
import { demoCommands } from './demo.js';
import { completionCommands } from './completion.js';
import { edgeCommands } from './edge.js';

/**
 * Hand-written command groups. Plain resource commands (`avatar tokens create`, ...) are
 * generated from the contract's operation table (src/cli/generated.ts) after these, so a
 * hand-written `<group> <verb>` replaces the generated one of the same name.
 *
 * To add a group: create src/cli/commands/<group>.ts exporting a CommandModule whose
 * `register(program, cli)` adds `program.command('<group>')` and its verbs (reuse an
 * existing group with `program.commands.find(c => c.name() === '<group>')`), then list it
 * here. Use `cli.client()` for HTTP, `cli.print()` for results (JSON with --json),
 * `cli.note()` for progress on stderr, and throw CliError(message, ExitCode.usage) for bad
 * input; ApiResponseError from the client is mapped to exit codes by src/cli/main.ts.
 */
export const commandModules: CommandModule[] = [emulatorCommands, configCommands, apiCommand];
commandModules.push(avatarCommands, toolsCommands);
commandModules.push(sessionCommands);
commandModules.push(liveCommands, smokeCommands, demoCommands, completionCommands);
commandModules.push(edgeCommands);
