/**
 * The layers of docs/architecture.md as rules (dependency-cruiser). `npm run deps` checks
 * them; `npm run deps:graph` draws docs/layers.md (Mermaid) from the same tree.
 * To add a rule: copy one below, name it, set `from.path` (the importing files) and
 * `to.path` / `to.pathNot` (what they may not reach), and say why in `comment`.
 * Paths are regular expressions on paths relative to the directory depcruise runs in.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles: move what both sides need to the module below them both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'seat-parts-below-sessions',
      severity: 'error',
      comment:
        'The session runtime composes the fleet, the queue and the webhooks; they never import sessions/ back (issue 19 item 3: no ring). What their routes need is passed in by sessions/register.ts.',
      from: { path: '^src/emulator/(fleet|queue|webhooks)/' },
      to: { path: '^src/emulator/sessions/' },
    },
    {
      name: 'contract-is-a-leaf',
      severity: 'error',
      comment: 'src/contract is the spec as code: it imports nothing of ours.',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'client-only-contract',
      severity: 'error',
      comment: 'src/client imports only the contract (it is exported for app developers).',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/(client|contract)/' },
    },
    {
      name: 'browser-only-contract',
      severity: 'error',
      comment: 'src/browser runs in a page: of ours it imports only the contract.',
      from: { path: '^src/browser/' },
      to: { path: '^src/', pathNot: '^src/(browser|contract)/' },
    },
    {
      name: 'browser-no-node-builtin',
      severity: 'error',
      comment: 'src/browser runs in a page: no Node built-in module.',
      from: { path: '^src/browser/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'models-media-below-edge',
      severity: 'error',
      comment:
        'src/models and src/media are shared pieces: they import only the contract and each other.',
      from: { path: '^src/(models|media)/' },
      to: { path: '^src/', pathNot: '^src/(models|media|contract)/' },
    },
    {
      name: 'server-below-emulator-and-edge',
      severity: 'error',
      comment:
        'src/server (the operation binder, the body reader, the constant-time compare) is shared by the emulator, the edge and the CLI: of ours it imports only the contract.',
      from: { path: '^src/server/' },
      to: { path: '^src/', pathNot: '^src/(server|contract)/' },
    },
    {
      name: 'server-is-node-side',
      severity: 'error',
      comment:
        'src/server runs in Node: the contract, the client and the browser (exported for app developers and pages) never import it.',
      from: { path: '^src/(contract|client|browser)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'edge-not-emulator',
      severity: 'error',
      comment:
        'The edge reaches the control plane over HTTP, never by import (a second box runs in another process).',
      from: { path: '^src/edge/' },
      to: { path: '^src/', pathNot: '^src/(edge|server|contract|models|media)/' },
    },
    {
      name: 'emulator-not-cli',
      severity: 'error',
      comment:
        'The emulator imports contract, models, media and edge (to start boxes in-process), never the CLI or the clients.',
      from: { path: '^src/emulator/' },
      to: { path: '^src/', pathNot: '^src/(emulator|edge|server|contract|models|media)/' },
    },
    {
      name: 'only-cli-and-bin-import-cli',
      severity: 'error',
      comment:
        'Nothing in src imports the CLI but the CLI itself (and bin/, which is outside src).',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      from: {},
      // bin/avatar.js loads the built CLI (dist/), which need not exist before `npm run build`.
      to: { couldNotResolve: true, pathNot: '^(\\.\\./)?dist/' },
    },
  ],
  // Modules that must import something: the sockets on both ends take the edge's messages
  // (subprotocol, frame tags, schemas) from the contract instead of writing them again.
  required: [
    {
      name: 'edge-sockets-speak-contract-messages',
      severity: 'error',
      comment:
        'The edge socket handlers build and check messages with src/contract/edge/messages.ts (issue 19).',
      module: { path: '^src/edge/sockets/v2\\.ts$' },
      to: { path: '^src/contract/edge/messages\\.ts$' },
    },
    {
      name: 'edge-chat-from-contract',
      severity: 'error',
      comment: "The edge's POST /chat takes its path and text limit from the contract.",
      module: { path: '^src/edge/box/chat-route\\.ts$' },
      to: { path: '^src/contract/' },
    },
    {
      name: 'client-sockets-speak-contract-messages',
      severity: 'error',
      comment:
        "The client reads the v2 socket with the contract's subprotocol and frame tags (issue 19).",
      module: { path: '^src/client/edge-v2\\.ts$' },
      to: { path: '^src/contract/edge/messages\\.ts$' },
    },
    {
      name: 'client-inference-paths-from-contract',
      severity: 'error',
      comment: "The inference client fills the operation table's paths (no hand-written paths).",
      module: { path: '^src/client/inference\\.ts$' },
      to: { path: '^src/contract/operations/inference\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|fixtures)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
