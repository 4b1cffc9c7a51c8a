import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { App, EmulatorContext } from '../context.js';
import type { BootstrapKeys } from '../bootstrap/bootstrap.js';
import { issueMessage } from '../inference/shared/issues.js';
import { insertKey } from '../tokens/store.js';
import { faultsOf } from '../operator/faults.js';
import { SeedSchema, type Seed } from './schema.js';
import { tokenSql } from '../tokens/sql.js';
import { orgSql } from '../inference/orgs/sql.js';

/** A seed that cannot be applied; the message names the file, the line and the field. */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

type Path = (string | number)[];

interface LoadedSeed {
  seed: Seed;
  /** `file:line` of the node at `path` (or of its nearest ancestor present). */
  at(path: Path): string;
}

/** Read and check a seed file (YAML, or JSON, which YAML reads too). */
export function loadSeed(file: string): LoadedSeed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SeedError(`${file}: cannot read the seed file: ${(e as Error).message}`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false }) as Document.Parsed;
  const lineOf = (pos: number) => lines.linePos(pos).line;
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new SeedError(
      `${file}:${lineOf(e.pos[0])}: not valid YAML or JSON: ${e.message.split('\n')[0]}`,
    );
  }
  const at = (path: Path): string => {
    for (let p = [...path]; ; p = p.slice(0, -1)) {
      const node =
        p.length === 0
          ? doc.contents
          : (doc.getIn(p, true) as { range?: [number, number, number] } | undefined);
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      if (range) return `${file}:${lineOf(range[0])}`;
      if (p.length === 0) return `${file}:1`;
    }
  };
  const value = doc.toJS() ?? {};
  const r = SeedSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = keys.length ? [...issue.path, keys[0]!] : issue.path;
    const field = path.length ? path.join('.') : '(top level)';
    const reason = keys.length ? 'is not a seed field' : issueMessage(issue, value);
    throw new SeedError(`${at(path as Path)}: ${field}: ${reason}`);
  }
  return { seed: r.data, at };
}

/**
 * Apply a seed to a fresh store through the emulator's own routes (the same validation as
 * any client gets), with the dashboard key; keys with fixed values go straight to the store.
 */
export async function applySeed(
  ctx: EmulatorContext,
  app: App,
  baseUrl: string,
  keys: BootstrapKeys,
  loaded: LoadedSeed,
): Promise<void> {
  const { seed, at } = loaded;
  const call = async (
    path: Path,
    method: string,
    route: string,
    body: unknown,
  ): Promise<Record<string, unknown>> => {
    const res = await app.request(`${baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${keys.dashboardKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status >= 300) {
      const why = [answer.error, answer.detail ?? answer.message]
        .filter((x) => typeof x === 'string')
        .join(': ');
      throw new SeedError(
        `${at(path)}: ${path.join('.')}: the emulator refused it (${res.status} ${why})`,
      );
    }
    return answer;
  };
  const seen = new Map<string, string>();
  const addParts = async (
    path: Path,
    workspaceId: string,
    parts: {
      keys: Seed['workspaces'][number]['keys'];
      webhooks: Seed['workspaces'][number]['webhooks'];
    },
  ) => {
    for (const [i, k] of parts.keys.entries()) {
      const kp = [...path, 'keys', i, 'token'];
      const lookup = k.token.split('.')[0]!.split('_')[1]!;
      if (seen.has(lookup) || tokenSql(ctx.db).apiKeyLookupTaken.get(lookup)) {
        throw new SeedError(
          `${at(kp)}: ${kp.join('.')}: the 8 hex after the prefix are already used${seen.has(lookup) ? ` by ${seen.get(lookup)}` : ''}`,
        );
      }
      seen.set(lookup, kp.join('.'));
      insertKey(ctx, {
        userId: keys.userId,
        workspaceId,
        name: k.name,
        kind: k.token.startsWith('pk_') ? 'publishable' : 'secret',
        scopes: k.scopes,
        allowedOrigins: k.allowed_origins ?? null,
        raw: k.token,
      });
    }
    for (const [i, w] of parts.webhooks.entries()) {
      await call([...path, 'webhooks', i], 'POST', `/api/v1/workspaces/${workspaceId}/webhooks`, w);
    }
  };
  // --org-plan, when given, wins over the seed's plan.
  if (seed.org && ctx.options.orgPlan === undefined)
    orgSql(ctx.db).setOrgsPlanById.run(seed.org.plan, keys.orgId);
  if (seed.default_workspace)
    await addParts(['default_workspace'], keys.workspaceId, seed.default_workspace);
  for (const f of seed.faults) faultsOf(ctx).add(f);
  for (const [i, w] of seed.workspaces.entries()) {
    const created = await call(['workspaces', i], 'POST', '/api/v1/workspaces', {
      name: w.name,
      plan: w.plan,
    });
    await addParts(['workspaces', i], String(created.id), w);
  }
}
