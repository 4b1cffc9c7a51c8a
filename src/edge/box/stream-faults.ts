/**
 * Stream faults on the box (docs/testing.md "Faults inside live streams"): the control
 * plane arms events (`POST /_box/faults`, or the register answer); at an armed event a
 * session asks the control plane which faults it is dealt (`boxFaultClaim`), which counts,
 * rolls and logs them. An event nobody armed costs nothing: no call is made.
 */
import {
  boxFaultClaim,
  StreamFaultEvents,
  type StreamFaultEvent,
} from '../../contract/operations/boxes.js';
import { DealtStreamFault } from '../../contract/resources/operator.js';
import { z } from 'zod';
import type { SessionFaults } from '../session/faults.js';
import type { ControlPlaneLink } from './control-plane.js';

const Dealt = z.object({ faults: z.array(DealtStreamFault) });
export const ArmBody = z.object({ events: z.array(z.enum(StreamFaultEvents)) });

export class BoxFaults {
  private armed = new Set<StreamFaultEvent>();

  constructor(
    private readonly cp: ControlPlaneLink,
    readonly crash: () => void,
  ) {}

  arm(events: readonly StreamFaultEvent[]): void {
    this.armed = new Set(events);
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
