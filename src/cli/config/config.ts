import { configPath, profileNamed, readConfig, resolveConnection, writeConfig } from '../config.js';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderRecord, renderTable } from '../output.js';

const mask = (key?: string) => (key ? `${key.slice(0, 12)}…` : '');

export const configCommands = [
  defineCommand({
    name: 'set',
    summary: 'create or update a profile from --base-url, --api-key and --workspace',
    args: { profile: { usage: '<profile>', description: 'profile name' } },
    options: { default: { flags: '--default', description: 'make it the default profile' } },
    run({ args: { profile: name }, options: opts, cli }) {
      if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) {
        throw new CliError(
          `profile names are letters, digits, '.', '_' and '-' (got ${name})`,
          ExitCode.usage,
        );
      }
      const g = cli.globals();
      const cfg = readConfig(cli.io.env);
      const p = { ...profileNamed(cfg, name) };
      if (g.baseUrl) p.base_url = g.baseUrl;
      if (g.apiKey) p.api_key = g.apiKey;
      if (g.workspace) p.workspace_id = g.workspace;
      if (!p.base_url) throw new CliError('a profile needs --base-url', ExitCode.usage);
      cfg.profiles[name] = p;
      if (opts.default || !cfg.default_profile) cfg.default_profile = name;
      writeConfig(cli.io.env, cfg);
      cli.note(`saved profile ${name} in ${configPath(cli.io.env)}`);
    },
  }),
  defineCommand({
    name: 'list',
    summary: 'list profiles',
    run({ cli }) {
      const cfg = readConfig(cli.io.env);
      const rows = Object.entries(cfg.profiles).map(([name, p]) => ({
        name,
        default: name === cfg.default_profile,
        base_url: p.base_url,
        workspace_id: p.workspace_id ?? '',
        api_key: mask(p.api_key),
      }));
      cli.print(cli.globals().json ? cfg : rows, (r) =>
        renderTable(r as Record<string, unknown>[]),
      );
    },
  }),
  defineCommand({
    name: 'use',
    summary: 'make a profile the default',
    args: { profile: '<profile>' },
    run({ args: { profile: name }, cli }) {
      const cfg = readConfig(cli.io.env);
      if (!profileNamed(cfg, name)) throw new CliError(`no profile named ${name}`, ExitCode.usage);
      cfg.default_profile = name;
      writeConfig(cli.io.env, cfg);
      cli.note(`default profile: ${name}`);
    },
  }),
  defineCommand({
    name: 'remove',
    summary: 'delete a profile',
    args: { profile: '<profile>' },
    run({ args: { profile: name }, cli }) {
      const cfg = readConfig(cli.io.env);
      if (!profileNamed(cfg, name)) throw new CliError(`no profile named ${name}`, ExitCode.usage);
      delete cfg.profiles[name];
      if (cfg.default_profile === name) delete cfg.default_profile;
      writeConfig(cli.io.env, cfg);
    },
  }),
  defineCommand({
    name: 'show',
    summary: 'show the connection the CLI would use now, and where each part came from',
    run({ cli }) {
      const conn = resolveConnection(cli.globals(), cli.io.env, cli.io.cwd);
      // None: the context's error says why (no profile of that name, several emulators, none).
      if (!conn) cli.connection();
      if (!conn)
        throw new CliError(
          'no connection configured (avatar emulator start, or avatar config set)',
          ExitCode.usage,
        );
      const out = {
        base_url: conn.baseUrl,
        api_key: mask(conn.apiKey),
        workspace_id: conn.workspaceId ?? null,
        source: conn.source,
      };
      cli.print(out, (b) => renderRecord(b as Record<string, unknown>));
    },
  }),
];
