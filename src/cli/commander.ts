/**
 * commander through require(): its ESM entry wraps the CommonJS build, and the wrapper's
 * export scanning costs a noticeable part of `avatar --help` (start-up cost, issue 7 item 12).
 */
import { createRequire } from 'node:module';

const commander = createRequire(import.meta.url)('commander') as typeof import('commander');
export const { Command, CommanderError, Help, Option } = commander;
export type { Command as CommandType } from 'commander';
