import { startEmulator } from '/work/wt-browser/dist/emulator/start.js';
const emu = await startEmulator({ port: 0, host: '127.0.0.1', inMemory: true });
const H = { authorization: 'Bearer ' + emu.keys.dashboardKey };
for (const p of ['/api/gallery', '/api/v1/workspaces', '/api/v1/tokens', '/_emulator/queue', '/_emulator/webhooks/deliveries']) { const r = await fetch(emu.baseUrl + p, { headers: H }); console.log(p, r.status, (await r.text()).slice(0, 400)); }
const ws = (await (await fetch(emu.baseUrl + '/api/v1/workspaces', { headers: H })).json());
console.log(JSON.stringify(ws).slice(0,300));
await emu.stop();
