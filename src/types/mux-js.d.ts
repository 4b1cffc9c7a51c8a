/** The few mux.js (Apache-2.0) box helpers src/media/fmp4.ts and visemes.ts use; mux.js ships no types. */
declare module 'mux.js/lib/mp4/find-box.js' {
  /** Payloads (views into `data`, header excluded) of every box along `path`. */
  export default function findBox(data: Uint8Array, path: string[]): Uint8Array[];
}
declare module 'mux.js/lib/tools/parse-tfhd.js' {
  export default function parseTfhd(payload: Uint8Array): {
    trackId: number;
    defaultSampleDuration?: number;
    defaultSampleFlags?: number;
  };
}
declare module 'mux.js/lib/tools/parse-trun.js' {
  export default function parseTrun(payload: Uint8Array): {
    dataOffset?: number;
    samples: { duration?: number; size?: number; flags?: { isNonSyncSample: number } }[];
  };
}
