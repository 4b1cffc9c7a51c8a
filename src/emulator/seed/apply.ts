import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import type { App, EmulatorContext } from '../context.js';
import type { BootstrapKeys } from '../bootstrap/bootstrap.js';
import { locatedIssue, parseLocated, type Path } from './located.js';
import { checkSteps, unionIssue } from '../scripts/load.js';
import { insertKey } from '../tokens/store.js';
import { faultsOf } from '../operator/faults.js';
import { SeedSchema, type Seed } from './schema.js';
import { tokenSql } from '../tokens/sql.js';
import { orgSql } from '../inference/orgs/sql.js';
import { seedSql, type SeededTable } from './sql.js';
import { fillPath, type AnyOperation } from '../../contract/operation.js';
import {
  createAvatarWs,
  createVersionWs,
  uploadFaceWs,
  uploadVoiceWs,
} from '../../contract/operations/avatars.js';
import { createProfileWs } from '../../contract/operations/profiles.js';
import {
  createVoiceVersionWs,
  createVoiceWs,
  uploadVoiceSampleWs,
} from '../../contract/operations/voices.js';
import { registerMcpServer } from '../../contract/operations/tools.js';
import { createWebhook } from '../../contract/operations/webhooks.js';
import { createWorkspace } from '../../contract/operations/core.js';
import type { IdSource } from '../ids.js';

/** A seed that cannot be applied; the message names the file, the line and the field. */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

export interface LoadedSeed {
  seed: Seed;
  /** The seed file: files it names are relative to its directory. */
  file: string;
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
  const { value, at } = parseLocated(text, file, (m) => new SeedError(m));
  const scripts = (value as { scripts?: unknown } | null)?.scripts;
  try {
    if (Array.isArray(scripts)) scripts.forEach((s, i) => checkSteps(s, ['scripts', i], at));
  } catch (e) {
    throw new SeedError((e as Error).message);
  }
  const r = SeedSchema.safeParse(value);
  if (!r.success) {
    const issue = unionIssue(r.error.issues[0]!, value);
    const noun = issue.path[0] === 'scripts' ? 'script' : 'seed';
    throw new SeedError(locatedIssue(issue, value, at, noun).text);
  }
  return { seed: r.data, file, at };
}

/** Content types of the files a seed names, by extension (the upload routes' types). */
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
};
const AUDIO_TYPES: Record<string, string> = { '.wav': 'audio/wav', '.mp3': 'audio/mpeg' };

/** The version body's fields of a seed avatar (the rest are the avatar's and the files). */
const VERSION_FIELDS = [
  'system_prompt',
  'config_json',
  'description',
  'backstory',
  'native_language',
  'voice_ref_text',
  'source_persona',
] as const;

type Parts = Pick<
  Seed['workspaces'][number],
  'keys' | 'webhooks' | 'avatars' | 'voices' | 'mcp_servers'
>;

/**
 * Apply a seed to a fresh store through the emulator's own routes (the same validation as
 * any client gets), with the dashboard key; keys with fixed values go straight to the store.
 * A fixed id (avatars, voices, MCP servers) is the id the route draws from the emulator's
 * id source for that one request: the route itself is unchanged.
 */
export async function applySeed(
  ctx: EmulatorContext,
  app: App,
  baseUrl: string,
  keys: BootstrapKeys,
  loaded: LoadedSeed,
): Promise<void> {
  const { seed, at } = loaded;
  const where = (path: Path) => `${at(path)}: ${path.join('.')}`;
  const call = async (
    path: Path,
    op: AnyOperation,
    params: Record<string, string>,
    body: unknown,
    raw?: { bytes: Buffer; type: string; headers?: Record<string, string> },
  ): Promise<Record<string, unknown>> => {
    const res = await app.request(`${baseUrl}${fillPath(op.path, params)}`, {
      method: op.method.toUpperCase(),
      headers: {
        authorization: `Bearer ${keys.dashboardKey}`,
        'content-type': raw ? raw.type : 'application/json',
        ...raw?.headers,
      },
      body: raw ? new Uint8Array(raw.bytes) : JSON.stringify(body),
    });
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status >= 300) {
      const why = [answer.error, answer.detail ?? answer.message]
        .filter((x) => typeof x === 'string')
        .join(': ');
      throw new SeedError(`${where(path)}: the emulator refused it (${res.status} ${why})`);
    }
    return answer;
  };
  const readMedia = (path: Path, name: string, types: Record<string, string>) => {
    const type = types[extname(name).toLowerCase()];
    if (!type)
      throw new SeedError(
        `${where(path)}: ${name} must be a ${Object.keys(types)
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1')} file`,
      );
    const full = resolve(dirname(loaded.file), name);
    try {
      return { bytes: readFileSync(full), type };
    } catch (e) {
      throw new SeedError(`${where(path)}: cannot read ${full}: ${(e as Error).message}`);
    }
  };
  // Fixed ids: the next uuid (or hex id) the route draws is this one, for one request.
  const fixed: { uuid?: string; hex?: string } = {};
  const base: IdSource = ctx.ids;
  ctx.ids = {
    uuid: () => {
      const id = fixed.uuid ?? base.uuid();
      fixed.uuid = undefined;
      return id;
    },
    hex: (bytes) => {
      const id = fixed.hex !== undefined && fixed.hex.length === bytes * 2 ? fixed.hex : null;
      if (id !== null) fixed.hex = undefined;
      return id ?? base.hex(bytes);
    },
  };
  const ids = new Map<string, string>();
  const withId = async (
    path: Path,
    id: string | undefined,
    table: SeededTable,
    kind: 'uuid' | 'hex',
    run: () => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> => {
    if (id === undefined) return run();
    const idPath = [...path, 'id'];
    if (ids.has(id) || seedSql(ctx.db)[table].get(id))
      throw new SeedError(
        `${where(idPath)}: already used${ids.has(id) ? ` by ${ids.get(id)}` : ' in the store'}`,
      );
    ids.set(id, idPath.join('.'));
    fixed[kind] = kind === 'uuid' ? id : id.slice('mcps_'.length);
    try {
      const made = await run();
      if (made.id !== id)
        throw new SeedError(`${where(idPath)}: the emulator did not take the fixed id`);
      return made;
    } finally {
      fixed.uuid = fixed.hex = undefined;
    }
  };

  const seen = new Map<string, string>();
  const addParts = async (path: Path, workspaceId: string, parts: Parts) => {
    const wsId = workspaceId;
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
    for (const [i, w] of parts.webhooks.entries())
      await call([...path, 'webhooks', i], createWebhook, { wsId }, w);
    for (const [i, a] of parts.avatars.entries()) {
      const ap = [...path, 'avatars', i];
      const face = a.face ? readMedia([...ap, 'face'], a.face, IMAGE_TYPES) : null;
      const voice = a.voice ? readMedia([...ap, 'voice'], a.voice, AUDIO_TYPES) : null;
      const avatar = await withId(ap, a.id, 'avatars', 'uuid', () =>
        call(ap, createAvatarWs, { wsId }, { name: a.name, kind: a.kind }),
      );
      const avatarId = String(avatar.id);
      const versionBody = Object.fromEntries(
        VERSION_FIELDS.filter((f) => a[f] !== undefined).map((f) => [f, a[f]]),
      );
      if (Object.keys(versionBody).length > 0 || face || voice) {
        const v = await call(ap, createVersionWs, { wsId, avatarId }, versionBody);
        const versionId = String(v.id);
        if (face)
          await call([...ap, 'face'], uploadFaceWs, { wsId, avatarId, versionId }, null, face);
        if (voice)
          await call([...ap, 'voice'], uploadVoiceWs, { wsId, avatarId, versionId }, null, {
            ...voice,
            headers: a.voice_ref_text ? { 'x-ref-text': a.voice_ref_text } : {},
          });
      }
      for (const [j, { id, ...p }] of a.profiles.entries()) {
        const pp = [...ap, 'profiles', j];
        await withId(pp, id, 'avatar_profiles', 'uuid', () =>
          call(pp, createProfileWs, { wsId, avatarId }, p),
        );
      }
    }
    for (const [i, v] of parts.voices.entries()) {
      const vp = [...path, 'voices', i];
      const sample = v.sample ? readMedia([...vp, 'sample'], v.sample, AUDIO_TYPES) : null;
      const voice = await withId(vp, v.id, 'voices', 'uuid', () =>
        call(vp, createVoiceWs, { wsId }, { name: v.name, kind: v.kind }),
      );
      const voiceId = String(voice.id);
      if (sample || v.configJson !== undefined) {
        const ver = await call(
          vp,
          createVoiceVersionWs,
          { wsId, voiceId },
          v.configJson !== undefined ? { configJson: v.configJson } : {},
        );
        if (sample)
          await call(
            [...vp, 'sample'],
            uploadVoiceSampleWs,
            { wsId, voiceId, versionId: String(ver.id) },
            null,
            sample,
          );
      }
    }
    for (const [i, m] of parts.mcp_servers.entries()) {
      const mp = [...path, 'mcp_servers', i];
      const { id, ...body } = m;
      await withId(mp, id, 'mcp_servers', 'hex', () => call(mp, registerMcpServer, { wsId }, body));
    }
  };
  try {
    // --org-plan, when given, wins over the seed's plan.
    if (seed.org && ctx.options.orgPlan === undefined)
      orgSql(ctx.db).setOrgsPlanById.run(seed.org.plan, keys.orgId);
    if (seed.default_workspace)
      await addParts(['default_workspace'], keys.workspaceId, seed.default_workspace);
    for (const f of seed.faults) faultsOf(ctx).add(f);
    for (const [i, w] of seed.workspaces.entries()) {
      const created = await withId(['workspaces', i], w.id, 'workspaces', 'uuid', () =>
        call(['workspaces', i], createWorkspace, {}, { name: w.name, plan: w.plan }),
      );
      await addParts(['workspaces', i], String(created.id), w);
    }
  } finally {
    ctx.ids = base;
  }
}
