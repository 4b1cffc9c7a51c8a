// `node --import <this file>`: every module the process loads is appended, one URL a line,
// to the file named by AVATAR_TEST_MODULE_LOG (test/cli-help-fast.test.ts reads it).
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url);
