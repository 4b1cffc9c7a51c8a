import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { listEmulators, writeEmulatorState } from '../config.js';
import type { CliContext } from '../context.js';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { operatorCall, operatorPath } from './emulator-operator.js';

/**
 * `avatar emulator export FILE`, `import FILE`, `reset [--new-keys]` (issue 18 item 3;
 * docs/testing.md "State") over `/_emulator/state/*`.
 */

interface KeysAnswer {
  keys: { workspace_id: string; org_id: string; secret_key: string; dashboard_key: string };
}

/** The local emulator's record (what the CLI finds it by) follows keys that changed. */
function followKeys(cli: CliContext, k: KeysAnswer['keys']): void {
  const base = cli.connection().baseUrl.replace(/\/$/, '');
  for (const s of listEmulators(cli.io.env)) {
    if (s.base_url === base && s.secret_key !== k.secret_key) {
      writeEmulatorState(cli.io.env, {
        ...s,
        workspace_id: k.workspace_id,
        org_id: k.org_id,
        secret_key: k.secret_key,
        dashboard_key: k.dashboard_key,
      });
    }
  }
}

function showKeys(cli: CliContext, body: KeysAnswer, what: string): void {
  followKeys(cli, body.keys);
  cli.print(body, () =>
    [
      what,
      `  workspace_id   ${body.keys.workspace_id}`,
      `  org_id         ${body.keys.org_id}`,
      `  secret key     ${body.keys.secret_key}`,
      `  dashboard key  ${body.keys.dashboard_key}`,
    ].join('\n'),
  );
}

export const stateCommands = [
  defineCommand({
    name: 'export',
    summary:
      "write the emulator's whole state (every workspace, key, avatar, voice, session record, blob) to a file",
    args: {
      file: {
        usage: '<file>',
        description: 'where to write the state document (JSON); - for stdout',
      },
    },
    async run({ args: { file }, cli }) {
      const doc = await operatorCall<{
        tables: Record<string, { rows: unknown[] }>;
        blobs: Record<string, string>;
      }>(cli, 'GET', await operatorPath('stateExport'));
      const text = JSON.stringify(doc) + '\n';
      if (file === '-') {
        cli.io.stdout.write(text);
        return;
      }
      writeFileSync(resolve(cli.io.cwd, file), text);
      const rows = Object.values(doc.tables).reduce((n, t) => n + t.rows.length, 0);
      cli.print(
        { file, rows, blobs: Object.keys(doc.blobs).length, bytes: Buffer.byteLength(text) },
        () => `wrote ${file}: ${rows} rows, ${Object.keys(doc.blobs).length} blobs`,
      );
    },
  }),
  defineCommand({
    name: 'import',
    summary:
      "replace the emulator's state with an export; live sessions end; the keys become the export's",
    args: {
      file: {
        usage: '<file>',
        description: 'a state document written by `emulator export` (this version or an older one)',
      },
    },
    async run({ args: { file }, cli }) {
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(resolve(cli.io.cwd, file), 'utf8'));
      } catch (e) {
        throw new CliError(`cannot read ${file}: ${(e as Error).message}`, ExitCode.usage);
      }
      showKeys(
        cli,
        await operatorCall<KeysAnswer>(cli, 'POST', await operatorPath('stateImport'), doc),
        `imported ${file}`,
      );
    },
  }),
  defineCommand({
    name: 'reset',
    summary:
      'empty the emulator: every workspace, avatar, voice, key, session and job goes (the stock catalog stays)',
    options: {
      newKeys: {
        flags: '--new-keys',
        description: 'also replace the bootstrap keys (default: they keep working)',
      },
    },
    async run({ options: opts, cli }) {
      showKeys(
        cli,
        await operatorCall<KeysAnswer>(cli, 'POST', await operatorPath('stateReset'), {
          keep_keys: !opts.newKeys,
        }),
        'reset',
      );
    },
  }),
];
