import { fillPath } from '../../contract/operation.js';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';

/**
 * One call to an emulator's operator route (`/_emulator/*`, ours): the configured key as a
 * Bearer header and a JSON body (both required of state-changing operator routes). A
 * non-2xx answer becomes a CliError naming the route and the emulator's message.
 */
export async function operatorCall<T = unknown>(
  cli: CliContext,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  await cli.ready();
  const client = cli.client();
  const r = await client.raw<T>(method, path, method === 'POST' ? { body: body ?? {} } : {});
  if (r.status >= 200 && r.status < 300) return r.body;
  const b = (r.body ?? {}) as { error?: unknown; message?: unknown; detail?: unknown };
  const what = [b.error, b.detail ?? b.message].filter((x) => typeof x === 'string').join(': ');
  // The hint only when the route itself is unknown: a 404 of the emulator's own (an empty
  // queue, no such fault) names its error, and an unknown route's says "no route".
  const ownError =
    typeof b.error === 'string' &&
    !(typeof b.message === 'string' && b.message.startsWith('no route '));
  const hint =
    r.status === 404 && !ownError ? ' (is this an emulator? operator routes exist only there)' : '';
  throw new CliError(
    `${method} ${path} answered ${r.status}${what ? ` ${what}` : ''}${hint}`,
    r.status >= 500 ? ExitCode.apiServerError : ExitCode.apiClientError,
  );
}

type OperatorOps = typeof import('../../contract/operations/operator.js');
type OperatorOpName = {
  [K in keyof OperatorOps]: OperatorOps[K] extends { path: string } ? K : never;
}[keyof OperatorOps];

/** The path of an operator operation of the contract, filled (loaded when a command runs, not for --help). */
export async function operatorPath(
  name: OperatorOpName,
  params: Record<string, string> = {},
): Promise<string> {
  const ops = await import('../../contract/operations/operator.js');
  return fillPath((ops[name] as { path: string }).path, params);
}
