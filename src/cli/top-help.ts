/**
 * `avatar --help` without loading commander or any command module (issue 7 item 12: it
 * is the help people run most). The text is the one commander prints for the program
 * main.ts builds: the same global options and groups, the same layout;
 * test/cli-output.test.ts compares the two.
 */
import { builtRegistry, HELP_SECTION, type CommandGroup } from './groups.js';
import { helpWidth, MIN_DESCRIPTION, wrapText } from './wrap.js';

export const PROGRAM_DESCRIPTION = 'CLI and local emulator of the live avatar service';

/** Global options, as `[flags, description]`: main.ts registers these. */
export const globalOptions: [string, string][] = [
  ['--base-url <url>', 'service base URL (env AVATAR_BASE_URL; default: the local emulator)'],
  ['--api-key <key>', 'API key (env AVATAR_API_KEY)'],
  [
    '--workspace <id>',
    'workspace id for workspace routes (env AVATAR_WORKSPACE_ID; default: the workspace of a workspace-bound key)',
  ],
  ['--profile <name>', 'named profile from the config file (env AVATAR_PROFILE)'],
  [
    '--origin <url>',
    "send this Origin header (publishable keys are checked against it; live sessions' edge sockets too, against the mint's domain_allowlist)",
  ],
  [
    '--json',
    'print response bodies as JSON, unchanged; errors as the JSON error envelope on stderr',
  ],
];

/**
 * The text of `avatar --help` at this terminal's width, for these groups (default: the built
 * registry); null without a built registry (main.ts then derives it and commander prints).
 */
export function topHelp(
  io: { stdout: { isTTY?: boolean; columns?: number } },
  commandGroups: CommandGroup[] | undefined = builtRegistry(),
): string | null {
  if (!commandGroups) return null;
  const width = helpWidth(io);
  const options: [string, string][] = [
    ['-V, --version', 'output the version number'],
    ...globalOptions,
    ['-h, --help', 'display help for command'],
  ];
  const help: [string, string] = ['help [command]', 'display help for command'];
  const commands: [string, string][] = [
    ...commandGroups.map((g) => [g.name, g.description] as [string, string]),
    help,
  ];
  const terms = [...options, ...commands].map(([t]) => t.length);
  const fits = terms.filter((t) => t <= width - MIN_DESCRIPTION - 4);
  const termWidth = Math.max(0, ...(fits.length ? fits : terms));
  const item = ([term, desc]: [string, string]) =>
    `  ${term.padEnd(termWidth)}  ${wrapText(desc, width - termWidth - 4).replace(/\n/g, `\n${' '.repeat(termWidth + 4)}`)}`;
  return [
    'Usage: avatar [options] [command]',
    '',
    wrapText(PROGRAM_DESCRIPTION, width),
    '',
    'Options:',
    ...options.map(item),
    '',
    ...sections(commandGroups, help).flatMap(([heading, list]) => [heading, ...list.map(item), '']),
  ].join('\n');
}

/** The commands under their headings, in the order commander prints them (help last in its section). */
function sections(
  commandGroups: CommandGroup[],
  help: [string, string],
): [string, [string, string][]][] {
  const out = new Map<string, [string, string][]>();
  for (const g of commandGroups) {
    if (!out.has(g.section)) out.set(g.section, []);
    out.get(g.section)!.push([g.name, g.description]);
  }
  out.get(HELP_SECTION)!.push(help);
  return [...out];
}
