/**
 * Exit codes scripts can rely on (documented in docs/cli.md). Only the CLI entry turns
 * these into a process exit code.
 */
export const ExitCode = {
  ok: 0,
  /** Unexpected failure inside the CLI (a bug). */
  internal: 1,
  /** Bad flags or arguments, missing configuration. */
  usage: 2,
  /** The service answered 4xx (the request was wrong, unauthorized, or conflicted). */
  apiClientError: 3,
  /** The service answered 5xx (the service or fleet failed; retrying may help). */
  apiServerError: 4,
  /** The service could not be reached (connection refused, DNS, timeout). */
  network: 5,
  /** A check the command ran failed (`load-test --slo`, `sessions replay` found a difference). */
  checkFailed: 6,
  /** `avatar doctor`: the service answered something the contract does not say. */
  contractMismatch: 7,
  /** Interrupted by Ctrl-C. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the CLI reports in one line and maps to an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.usage,
    /** With --json, this body goes to stderr instead of `{ error, message }` (an API-shaped failure). */
    readonly envelope?: Record<string, unknown>,
    /**
     * The command has already told people this (`sessions live` prints why it ended, with
     * the session id and whether the seat was released): stderr gets nothing more, only the
     * exit code; with --json the envelope is still written (scripts read stderr for it).
     */
    readonly alreadyShown = false,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
