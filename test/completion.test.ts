import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, isolatedEnv } from './helpers/cli.js';

/** `avatar completion` is generated from the command tree: what a shell offers after each word. */
const dir = mkdtempSync(join(tmpdir(), 'avatar-completion-'));

async function script(shell: string): Promise<string> {
  const r = await cli(['completion', shell], isolatedEnv());
  expect(r.code).toBe(0);
  return r.stdout;
}

/** Ask real bash what it would complete for these words (the last one is being typed). */
function bashComplete(file: string, words: string[]): string[] {
  const arr = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync('bash', [
    '-c',
    `source ${file}; COMP_WORDS=(${arr}); COMP_CWORD=${words.length - 1}; _avatar_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return out.toString().split('\n').filter(Boolean);
}

describe('avatar completion', () => {
  it('bash completes command groups, verbs (hand-written and generated) and flags', async () => {
    const file = join(dir, 'avatar.bash');
    writeFileSync(file, await script('bash'));
    expect(bashComplete(file, ['avatar', 'se'])).toEqual(['sessions']);
    expect(bashComplete(file, ['avatar', 'sessions', ''])).toEqual(
      expect.arrayContaining(['live', 'mint', 'transcript', 'queue']),
    );
    expect(bashComplete(file, ['avatar', 'sessions', 'live', '--mic'])).toEqual([
      '--mic',
      '--mic-file',
    ]);
    // A flag's value is not mistaken for a command.
    expect(bashComplete(file, ['avatar', 'sessions', 'live', '--persona', 'ava', '--rec'])).toEqual(
      expect.arrayContaining(['--record', '--recording']),
    );
    expect(bashComplete(file, ['avatar', 'tokens', ''])).toContain('create');
    expect(bashComplete(file, ['avatar', 'completion', '--h'])).toEqual(['--help']);
  });

  it('bash offers no flags where a flag wants its value (the shell completes file names there)', async () => {
    const file = join(dir, 'avatar-values.bash');
    writeFileSync(file, await script('bash'));
    expect(bashComplete(file, ['avatar', 'sessions', 'live', '--record', ''])).toEqual([]);
    expect(bashComplete(file, ['avatar', 'sessions', 'live', '--mic-file', 'q'])).toEqual([]);
    // A global flag's value that happens to be a command name is not taken for the command.
    expect(bashComplete(file, ['avatar', '--profile', 'demo', 'sessions', 'li'])).toEqual([
      'live',
      'list',
    ]);
    // A command's argument choices complete too (read from the tree).
    expect(bashComplete(file, ['avatar', 'completion', ''])).toEqual(
      expect.arrayContaining(['bash', 'zsh', 'fish']),
    );
    // A flag with no value does not swallow the next word.
    expect(bashComplete(file, ['avatar', '--json', 'sessions', 'li'])).toEqual(['live', 'list']);
  });

  it('zsh and fish scripts name every command with its description', async () => {
    const zsh = await script('zsh');
    expect(zsh).toMatch(/^#compdef avatar/);
    expect(zsh).toContain(`("${' sessions'}") cands=(`);
    expect(zsh).toMatch(/'live:Mint a session and talk to the avatar/);
    const fish = await script('fish');
    expect(fish).toContain(`complete -c avatar -n '__avatar_at '\\'' sessions'\\''' -a 'live'`);
    expect(fish).toMatch(/-l mic-file -r -F -d 'stream this audio file/);
  });

  it('an unknown shell is a usage error', async () => {
    const r = await cli(['completion', 'tcsh'], isolatedEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /'tcsh' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish/,
    );
  });
});
