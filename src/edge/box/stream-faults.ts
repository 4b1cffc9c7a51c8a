/**
 * Stream faults on the box (docs/testing.md "Faults inside live streams"): the control
 * plane arms events (`POST /_box/faults`, or the register answer); at an armed event a
 * session asks the control plane which faults it is dealt (`boxFaultClaim`), which counts,
 * rolls and logs them. An event nobody armed costs nothing: no call is made.
 */
import { boxFaultClaim, type StreamFaultEvent } from '../../contract/operations/boxes.js';
import { DealtStreamFault } from '../../contract/resources/operator.js';
import { z } from 'zod';
import type { SessionFaults } from '../session/faults.js';
import type { ControlPlaneLink } from './control-plane.js';

const Dealt = z.object({ faults: z.array(DealtStreamFault) });

export class BoxFaults {
  private armed = new Set<StreamFaultEvent>();
  private version = -1;

  constructor(
    private readonly cp: ControlPlaneLink,
    readonly crash: () => void,
  ) {}

  /** Arm these events; an arm message older than the one heard last is ignored. */
  arm(events: readonly StreamFaultEvent[], version?: number): void {
    if (version !== undefined) {
      if (version < this.version) return;
      this.version = version;
    }
    this.armed = new Set(events);
  }

  /** The events armed now. */
  events(): StreamFaultEvent[] {
    return [...this.armed].sort();
  }

  /** The faults dealt to this session at this event; none when unarmed or the control plane cannot say. */
  async deal(sessionId: string, event: StreamFaultEvent): Promise<DealtStreamFault[]> {
    if (!this.armed.has(event)) return [];
    try {
      const r = await this.cp.post(boxFaultClaim, { sessionId }, { event });
      const body = Dealt.safeParse(r.body);
      return r.status === 200 && body.success ? body.data.faults : [];
    } catch {
      return [];
    }
  }

  forSession(sessionId: string): SessionFaults {
    return {
      armed: (event) => this.armed.has(event),
      deal: (event) => this.deal(sessionId, event),
      crash: () => this.crash(),
    };
  }
}
