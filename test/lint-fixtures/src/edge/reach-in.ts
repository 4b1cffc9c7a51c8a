// Breaks edge-not-emulator: the edge reaches the control plane over HTTP, never by import.
import { boxes } from '../emulator/box-registry.js';

export const seats = (): number => boxes.size;
