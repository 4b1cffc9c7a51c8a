import { findModel } from '../catalog.js';
import { InferenceError } from '../shared/errors.js';
import { issueMessage } from '../shared/issues.js';
import { schemas } from '../tasks/payloads.js';
import { expressions, pathOf, type TemplateError } from './template.js';

/**
 * A workflow DAG checked at create time (spec 4.12): node shapes, models and tasks that
 * exist, edges and `${nodes.k...}` references to nodes that exist, `${item}` only where an
 * item is bound, and no cycle. Dependencies are the edges plus the nodes a node's templates
 * read. Every refusal is 400 `invalid_workflow` naming the node (`param`).
 */
export interface TaskNode {
  type?: 'task';
  model_id: string;
  task: string;
  payload?: Record<string, unknown>;
  inputs?: Record<string, unknown>;
  outputs?: string[];
}

export interface MapNode {
  type: 'map';
  items: string;
  node: { model_id: string; task: string; payload: Record<string, unknown> };
  max_concurrency?: number;
  tolerance?: number;
}

export type WorkflowNode = TaskNode | MapNode;

export interface Dag {
  nodes: Record<string, WorkflowNode>;
  edges: [string, string][];
}

export const MAX_NODES = 100;
const KEY = /^[A-Za-z_][\w-]{0,63}$/;

const refuse = (message: string, param: string) =>
  new InferenceError(400, 'invalid_workflow', message, { param });
const isObj = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

function checkModel(model: unknown, task: unknown, where: string): void {
  if (typeof model !== 'string' || typeof task !== 'string')
    throw refuse(`${where}: model_id and task are required strings`, where);
  const m = findModel(model);
  if (!m)
    throw refuse(`${where}: model ${model} not found (GET /api/model-status)`, `${where}.model_id`);
  if (!m.tasks.includes(task as never))
    throw refuse(
      `${where}: model ${model} does not do ${task} (it does ${m.tasks.join(', ')})`,
      `${where}.task`,
    );
}

/**
 * A payload the task could never accept, found before any job runs: a required field that
 * is absent, or a field with no template whose value is wrong. A templated field stands in
 * for whatever it renders to and is checked when the job runs.
 */
function checkPayload(task: string, payload: Record<string, unknown>, where: string): void {
  const schema = (
    schemas as Record<
      string,
      {
        safeParse(v: unknown): {
          success: boolean;
          error?: { issues: import('zod').z.core.$ZodIssue[] };
        };
      }
    >
  )[task];
  const r = schema?.safeParse(payload);
  if (!r || r.success) return;
  for (const issue of r.error!.issues) {
    const top = issue.path[0];
    const value = top === undefined ? payload : payload[String(top)];
    if (value !== undefined && expressions(value).length > 0) continue;
    const param = [`${where}.payload`, ...issue.path.map(String)].join('.');
    throw refuse(`${param}: ${issueMessage(issue, payload)}`, param);
  }
}

export function validateDag(raw: unknown): {
  dag: Dag;
  order: string[];
  deps: Record<string, string[]>;
} {
  if (!isObj(raw) || !isObj(raw.nodes))
    throw refuse('dag: { nodes: { <key>: node }, edges: [] } is required', 'dag');
  const keys = Object.keys(raw.nodes);
  if (keys.length === 0) throw refuse('dag.nodes: at least one node', 'dag.nodes');
  if (keys.length > MAX_NODES) throw refuse(`dag.nodes: at most ${MAX_NODES} nodes`, 'dag.nodes');
  // Node keys are the user's (`constructor`, `__proto__` pass KEY): a Map, not an object.
  const deps = new Map<string, Set<string>>();
  for (const k of keys) {
    const where = `dag.nodes.${k}`;
    if (!KEY.test(k))
      throw refuse(
        `${where}: node keys are letters, digits, _ and -, starting with a letter or _`,
        where,
      );
    const n = raw.nodes[k];
    if (!isObj(n)) throw refuse(`${where}: must be an object`, where);
    deps.set(k, new Set());
    let templated: unknown;
    let itemScope: unknown;
    if (n.type === 'map') {
      if (typeof n.items !== 'string' || !n.items.includes('${'))
        throw refuse(
          `${where}.items: a template expression resolving to an array`,
          `${where}.items`,
        );
      if (!isObj(n.node))
        throw refuse(`${where}.node: { model_id, task, payload } is required`, `${where}.node`);
      checkModel(n.node.model_id, n.node.task, `${where}.node`);
      if (!isObj(n.node.payload))
        throw refuse(`${where}.node.payload: an object is required`, `${where}.node.payload`);
      checkPayload(n.node.task as string, n.node.payload, `${where}.node`);
      const mc = n.max_concurrency;
      if (
        mc !== undefined &&
        (!Number.isInteger(mc) || (mc as number) < 1 || (mc as number) > 64)
      ) {
        throw refuse(
          `${where}.max_concurrency: an integer from 1 to 64`,
          `${where}.max_concurrency`,
        );
      }
      const tol = n.tolerance;
      if (tol !== undefined && (typeof tol !== 'number' || tol < 0 || tol > 1))
        throw refuse(`${where}.tolerance: a number from 0 to 1`, `${where}.tolerance`);
      templated = n.items;
      itemScope = n.node.payload;
    } else {
      if (n.type !== undefined && n.type !== 'task')
        throw refuse(`${where}.type: task or map`, `${where}.type`);
      checkModel(n.model_id, n.task, where);
      if (n.payload !== undefined && n.inputs !== undefined)
        throw refuse(`${where}: payload or inputs, not both`, where);
      const p = n.payload ?? n.inputs ?? {};
      if (!isObj(p)) throw refuse(`${where}.payload: an object`, `${where}.payload`);
      checkPayload(n.task as string, p, where);
      if (
        n.outputs !== undefined &&
        (!Array.isArray(n.outputs) || n.outputs.some((o) => typeof o !== 'string'))
      ) {
        throw refuse(`${where}.outputs: an array of result field names`, `${where}.outputs`);
      }
      templated = p;
    }
    const exprs = [...expressions(templated), ...expressions(itemScope, true)];
    for (const { expr, itemBound, open } of exprs) {
      if (open) throw refuse(`${where}: ${expr} has no closing }`, where);
      let path: string[];
      try {
        path = pathOf(expr);
      } catch (e) {
        throw refuse(`${where}: ${(e as TemplateError).message}`, where);
      }
      if (path[0] === 'nodes') {
        const ref = path[1];
        if (!ref || !keys.includes(ref))
          throw refuse(`${where}: \${${expr}} names no node of this workflow`, where);
        if (ref === k) throw refuse(`${where}: a node cannot read its own result`, where);
        if (path[2] !== 'result')
          throw refuse(`${where}: \${${expr}}: node references read nodes.<key>.result...`, where);
        deps.get(k)!.add(ref);
      } else if (path[0] === 'item') {
        if (!itemBound)
          throw refuse(
            `${where}: \${${expr}} outside a map node payload or a $each template`,
            where,
          );
      } else if (path[0] !== 'input') {
        throw refuse(`${where}: \${${expr}}: expressions start with input, nodes or item`, where);
      }
    }
  }
  const edgesRaw = raw.edges ?? [];
  if (!Array.isArray(edgesRaw))
    throw refuse('dag.edges: an array of [from, to] pairs or { from, to }', 'dag.edges');
  const edges: [string, string][] = edgesRaw.map((e, i) => {
    const pair = Array.isArray(e) ? e : isObj(e) ? [e.from, e.to] : [];
    const [from, to] = pair as unknown[];
    if (typeof from !== 'string' || typeof to !== 'string')
      throw refuse(`dag.edges.${i}: [from, to] or { from, to }`, `dag.edges.${i}`);
    for (const end of [from, to])
      if (!keys.includes(end)) throw refuse(`dag.edges.${i}: no node ${end}`, `dag.edges.${i}`);
    if (from === to) throw refuse(`dag.edges.${i}: ${from} depends on itself`, `dag.edges.${i}`);
    deps.get(to)!.add(from);
    return [from, to];
  });
  // Kahn's algorithm: whatever cannot be ordered sits on a cycle.
  const indeg = Object.fromEntries(keys.map((k) => [k, deps.get(k)!.size]));
  const order: string[] = [];
  const ready = keys.filter((k) => indeg[k] === 0);
  while (ready.length) {
    const k = ready.shift()!;
    order.push(k);
    for (const other of keys)
      if (deps.get(other)!.has(k) && --indeg[other]! === 0) ready.push(other);
  }
  if (order.length < keys.length) {
    const stuck = keys.filter((k) => !order.includes(k));
    throw refuse(`dag: cycle among ${stuck.join(', ')}`, 'dag.edges');
  }
  return {
    dag: { nodes: raw.nodes as Record<string, WorkflowNode>, edges },
    order,
    deps: Object.fromEntries(keys.map((k) => [k, [...deps.get(k)!]])),
  };
}

/**
 * The first `${input.<name>}` a node reads that the execution's `input_params` lacks: such
 * a node could only fail, so the execution is refused before it starts (ours).
 */
export function missingInput(
  dag: Dag,
  input: Record<string, unknown>,
): { name: string; node: string } | null {
  for (const [node, n] of Object.entries(dag.nodes)) {
    for (const { expr } of expressions(n)) {
      const path = pathOf(expr);
      if (
        path[0] === 'input' &&
        path[1] !== undefined &&
        !Object.prototype.hasOwnProperty.call(input, path[1])
      )
        return { name: path[1], node };
    }
  }
  return null;
}
