/** The pluggable parts shared by the edge and the inference family. Types only here. */
export type * from './voice.js';
export type * from './brain.js';
export type * from './recognizer.js';
export type * from './vad.js';
