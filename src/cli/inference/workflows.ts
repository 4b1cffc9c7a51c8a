/**
 * `avatar workflows create|execute|get|cancel|run` (spec 4.12). `run FILE` creates the
 * workflow, executes it and follows each node live (state changes and map progress), then
 * prints every node's result; a failed node is named with its error.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { InferenceClient } from '../../client/inference.js';
import type { CliContext } from '../context.js';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderRecord } from '../output.js';
import { inference, jsonArg } from './inference-common.js';

interface NodeState {
  status: string;
  result?: unknown;
  error?: {
    code: string;
    message: string;
    item_errors?: { index: number; code: string; message: string }[];
  };
  progress?: { total: number; completed: number; failed: number };
}
interface Execution {
  id: string;
  status: string;
  error?: { code: string; message: string };
  nodes: Record<string, NodeState>;
}

const TERMINAL = ['completed', 'failed', 'cancelled'];

function readWorkflow(
  cli: CliContext,
  file: string,
): { name: string; dag: unknown; input_params?: Record<string, unknown> } {
  const v = jsonArg(cli, `@${file}`, file) as Record<string, unknown>;
  if (!v || typeof v !== 'object' || !v.dag)
    throw new CliError(`${file}: expected { name, dag: { nodes, edges } }`, ExitCode.usage);
  return {
    name: typeof v.name === 'string' ? v.name : file,
    dag: v.dag,
    input_params: v.input_params as Record<string, unknown> | undefined,
  };
}

const line = (key: string, n: NodeState) => {
  const p = n.progress
    ? ` ${n.progress.completed + n.progress.failed}/${n.progress.total}${n.progress.failed ? ` (${n.progress.failed} failed)` : ''}`
    : '';
  const err = n.status === 'failed' && n.error ? ` — ${n.error.code}: ${n.error.message}` : '';
  return `  ${key.padEnd(16)} ${n.status}${p}${err}`;
};

/** Lists as numbered keys, so a result's items (20 image URLs) each get a line of their own. */
const indexed = (v: unknown): unknown =>
  Array.isArray(v)
    ? Object.fromEntries(v.map((x, i) => [String(i), indexed(x)]))
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, indexed(x)]))
      : v;

/** A node's result whole, as indented `key value` lines (never cut: --json for the raw body). */
const resultLines = (v: unknown, width: number | undefined): string => {
  const o = indexed(v);
  if (!o || typeof o !== 'object' || Object.keys(o).length === 0) return ` ${JSON.stringify(v)}`;
  return `\n${renderRecord(o as Record<string, unknown>, (width ?? 100) - 2).replace(/^/gm, '  ')}`;
};

/** Poll the execution and print each node's changes until it ends. */
export async function follow(
  cli: CliContext,
  client: InferenceClient,
  id: string,
  intervalMs = 250,
): Promise<Execution> {
  const seen = new Map<string, string>();
  let cancelled = false;
  const off = cli.onInterrupt(() => {
    cancelled = true;
  });
  try {
    for (;;) {
      if (cancelled) {
        await client.cancelExecution(id).catch(() => undefined);
        throw new CliError(`interrupted: execution ${id} cancelled`, ExitCode.interrupted);
      }
      const ex = (await client.execution(id)).execution as Execution;
      for (const [key, n] of Object.entries(ex.nodes)) {
        const l = line(key, n);
        if (seen.get(key) !== l) {
          seen.set(key, l);
          cli.note(l);
        }
      }
      if (TERMINAL.includes(ex.status)) return ex;
      await sleep(intervalMs);
    }
  } finally {
    off();
  }
}

function report(cli: CliContext, ex: Execution): void {
  cli.print(ex, (_body, width) =>
    [
      `execution ${ex.id}: ${ex.status}`,
      ...Object.entries(ex.nodes).map(([k, n]) => {
        if (n.status === 'completed')
          return `${k}:${resultLines(n.result, width)}${n.error ? `\n  (${n.error.message})` : ''}`;
        if (n.status === 'failed') {
          const items = (n.error?.item_errors ?? [])
            .slice(0, 5)
            .map((e) => `\n  item ${e.index}: ${e.code}: ${e.message}`)
            .join('');
          return `${k}: FAILED ${n.error?.code}: ${n.error?.message}${items}`;
        }
        return `${k}: ${n.status}`;
      }),
    ].join('\n'),
  );
  if (ex.status === 'failed')
    throw new CliError(ex.error?.message ?? 'execution failed', ExitCode.apiClientError);
}

export const workflowsCommands = [
  defineCommand({
    name: 'create',
    summary: 'Create a workflow (the DAG is checked: cycles and bad references are refused)',
    args: { file: { usage: '<file>', description: 'JSON file { name, dag: { nodes, edges } }' } },
    async run({ args: { file }, cli }) {
      const w = readWorkflow(cli, file);
      cli.print(await inference(cli).createWorkflow({ name: w.name, dag: w.dag }));
    },
  }),
  defineCommand({
    name: 'execute',
    summary: 'Execute a workflow; prints the execution record',
    args: { workflowId: '<workflowId>' },
    options: {
      input: {
        flags: '--input <json>',
        description: 'input_params: inline JSON, @file or @-',
        default: '{}',
      },
      follow: { flags: '--follow', description: 'follow the nodes until the execution ends' },
    },
    async run({ args: { workflowId }, options: o, cli }) {
      const client = inference(cli);
      const r = await client.execute(
        workflowId,
        jsonArg(cli, o.input, '--input') as Record<string, unknown>,
      );
      if (!o.follow) return cli.print(r);
      report(cli, await follow(cli, client, r.execution.id));
    },
  }),
  defineCommand({
    name: 'get',
    summary: 'Show an execution: status and every node',
    args: { executionId: '<executionId>' },
    run: async ({ args: { executionId }, cli }) =>
      cli.print(await inference(cli).execution(executionId)),
  }),
  defineCommand({
    name: 'cancel',
    summary: 'Cancel a running execution',
    args: { executionId: '<executionId>' },
    run: async ({ args: { executionId }, cli }) =>
      cli.print(await inference(cli).cancelExecution(executionId)),
  }),
  defineCommand({
    name: 'run',
    summary: "Create, execute and follow a workflow live, then print each node's result",
    args: { file: { usage: '<file>', description: 'JSON file { name, dag, input_params? }' } },
    options: {
      input: {
        flags: '--input <json>',
        description: "input_params (overrides the file's): inline JSON, @file or @-",
      },
    },
    async run({ args: { file }, options: o, cli }) {
      const w = readWorkflow(cli, file);
      const client = inference(cli);
      const created = await client.createWorkflow({ name: w.name, dag: w.dag });
      const input = o.input
        ? (jsonArg(cli, o.input, '--input') as Record<string, unknown>)
        : (w.input_params ?? {});
      const r = await client.execute(created.workflow.id, input);
      cli.note(`workflow ${created.workflow.id}, execution ${r.execution.id}`);
      report(cli, await follow(cli, client, r.execution.id));
    },
  }),
];
