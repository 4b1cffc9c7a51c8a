// @echogarden/fvad-wasm ships no types: an Emscripten factory resolving to the module.
declare module '@echogarden/fvad-wasm' {
  const factory: (moduleArg?: object) => Promise<unknown>;
  export default factory;
}
