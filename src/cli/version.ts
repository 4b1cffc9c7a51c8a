/** The CLI's version (`avatar --version`); its own module so bin/avatar.js can answer without loading the CLI. */
export const CLI_VERSION = '0.1.0';
