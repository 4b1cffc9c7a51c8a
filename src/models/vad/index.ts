/** The VAD implementations (src/models/vad.ts is the interface). */
export { WebRtcVad, createWebRtcVad, VAD_SAMPLE_RATE, type WebRtcVadOptions } from './webrtc.js';
export { speechRegions, type SpeechRegion } from './regions.js';
