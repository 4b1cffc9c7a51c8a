import { ApiError } from '../../server/api-error.js';
import { implement } from '../http/router.js';
import {
  clock as clockOp,
  clockAdvance,
  clockFreeze,
  clockResume,
} from '../../contract/operations/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { DrivableClock, ManualClock } from '../clock.js';

/**
 * The emulator's clock from a test (issue 18 item 4; docs/testing.md "Time"):
 * - `GET /_emulator/clock` -> `{ now_ms, now, frozen, drivable, manual }`
 * - `POST /_emulator/clock/freeze`, `POST /_emulator/clock/resume`
 * - `POST /_emulator/clock/advance { ms }`: fires every timer that falls due, in order.
 * The default clock is a DrivableClock; a clock passed to startEmulator() is driven only
 * when it is a ManualClock (always frozen) or a DrivableClock; others answer 409.
 */
export function registerClockRoutes(app: App, ctx: EmulatorContext): void {
  const clock = ctx.clock;
  const state = () => ({
    now_ms: clock.now(),
    now: new Date(clock.now()).toISOString(),
    frozen: clock instanceof ManualClock || (clock instanceof DrivableClock && clock.frozen),
    drivable: clock instanceof ManualClock || clock instanceof DrivableClock,
    manual: clock instanceof ManualClock,
  });
  const notDrivable = () =>
    new ApiError(409, 'clock_not_drivable', {
      message:
        'this emulator was started with a clock of its own that cannot be driven (startEmulator({ clock }))',
    });
  implement(app, ctx, clockOp, () => state());
  implement(app, ctx, clockFreeze, () => {
    if (clock instanceof DrivableClock) clock.freeze();
    else if (!(clock instanceof ManualClock)) throw notDrivable();
    return state();
  });
  implement(app, ctx, clockResume, () => {
    if (clock instanceof ManualClock) {
      throw new ApiError(409, 'clock_manual', { message: 'a ManualClock only moves by advance' });
    }
    if (!(clock instanceof DrivableClock)) throw notDrivable();
    clock.resume();
    return state();
  });
  implement(app, ctx, clockAdvance, ({ body }) => {
    if (!(clock instanceof ManualClock || clock instanceof DrivableClock)) throw notDrivable();
    clock.advance(body.ms);
    return state();
  });
}
