import { Agent, request } from 'undici';
import { fillPath, type AnyOperation } from '../../contract/operation.js';

/**
 * The box's side of the internal box API (`/_internal/boxes/{boxId}/...`): registration,
 * seat events and transcript turns, over HTTP with the per-box secret; the paths are the
 * contract's (`src/contract/operations/boxes.ts`). The edge never
 * imports the emulator (ARCHITECTURE: that boundary lets a box run in another process).
 */
export class ControlPlaneLink {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000 });

  constructor(
    readonly baseUrl: string,
    private readonly boxId: string,
    private readonly secret: string,
  ) {}

  private url(op: AnyOperation, params: Record<string, string>): string {
    return this.baseUrl + fillPath(op.path, { ...params, boxId: this.boxId });
  }

  async post(
    op: AnyOperation,
    params: Record<string, string>,
    body: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const res = await request(this.url(op, params), {
      method: 'POST',
      headers: { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: res.statusCode, body: parsed };
  }

  /** GET JSON; throws on a non-2xx. */
  async getJson(op: AnyOperation, params: Record<string, string>): Promise<unknown> {
    const res = await request(this.url(op, params), {
      method: 'GET',
      headers: { authorization: `Bearer ${this.secret}` },
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new Error(`control plane answered ${res.statusCode} to ${op.path}`);
    return JSON.parse(text) as unknown;
  }

  /** POST and insist on a 2xx. */
  async must(op: AnyOperation, params: Record<string, string>, body: unknown): Promise<unknown> {
    const r = await this.post(op, params, body);
    if (r.status < 200 || r.status >= 300) {
      throw new Error(
        `control plane answered ${r.status} to ${op.path}: ${JSON.stringify(r.body)}`,
      );
    }
    return r.body;
  }

  /** GET bytes (a version's media); null when the control plane has none (404). */
  async getBytes(op: AnyOperation, params: Record<string, string>): Promise<Buffer | null> {
    const res = await request(this.url(op, params), {
      method: 'GET',
      headers: { authorization: `Bearer ${this.secret}` },
      dispatcher: this.agent,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode === 404) return null;
    if (res.statusCode !== 200)
      throw new Error(`control plane answered ${res.statusCode} to ${op.path}`);
    return bytes;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
