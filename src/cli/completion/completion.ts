/**
 * `avatar completion bash|zsh|fish` (issue 9): shell completion generated from the same
 * commander tree the CLI parses with, so every command (hand-written or generated from the
 * operation table) and every flag completes, and nothing drifts.
 */
import { Argument, type Command } from 'commander';
import type { CommandModule } from '../context.js';
import { completionScript, SHELLS, type Shell } from './completion-scripts.js';

const EXAMPLES = `
Examples:
  $ avatar completion bash > ~/.local/share/bash-completion/completions/avatar
  $ avatar completion zsh > "\${fpath[1]}/_avatar"  # then: autoload -U compinit
  $ avatar completion fish > ~/.config/fish/completions/avatar.fish
  $ source <(avatar completion bash)                   # this shell only`;

export const completionCommands: CommandModule = {
  register(program) {
    program
      .command('completion')
      .description(
        'print a shell completion script (bash, zsh or fish) for every avatar command and flag',
      )
      .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
      .addHelpText('after', EXAMPLES)
      .action((shell: string, _o: unknown, cmd: Command) => {
        let root = cmd;
        while (root.parent) root = root.parent;
        cmdOutput(cmd).write(completionScript(shell as Shell, root));
      });
  },
};

/** Commander routes help text through configureOutput; the script goes the same way (the injected stdout). */
function cmdOutput(cmd: Command): { write(s: string): void } {
  const cfg = (
    cmd as unknown as { configureOutput(): { writeOut?: (s: string) => void } }
  ).configureOutput();
  return { write: (s) => (cfg.writeOut ? cfg.writeOut(s) : process.stdout.write(s)) };
}
