/**
 * The playground's HTML: the skeleton with its labels (the script fills it), the styles,
 * and the page's credentials as JSON in the document (never in a URL).
 */
export function playgroundHtml(config: { apiKey: string; operatorToken: string }): string {
  // `<` escaped: the JSON cannot close the script element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>avatar emulator · playground</title>
<link rel="icon" href="/favicon.ico" type="image/x-icon">
<style>${CSS}</style>
<script type="application/json" id="config">${json}</script>
<script type="module" src="/_emulator/ui/app.js"></script>
</head>
<body>
<header>
  <h1>avatar emulator <span>playground</span></h1>
  <nav aria-label="Views" role="tablist">
    <button role="tab" id="tab-talk" aria-controls="talk" aria-selected="true">Talk</button>
    <button role="tab" id="tab-state" aria-controls="state" aria-selected="false" tabindex="-1">State</button>
  </nav>
</header>
<main>
<section id="talk" role="tabpanel" aria-labelledby="tab-talk">
  <div class="stage">
    <form id="start">
      <label>Avatar <select id="avatar" name="avatar" required></select></label>
      <label>Protocol <select id="protocol" name="protocol"><option value="1">v1 (three sockets)</option><option value="2">v2 (one socket)</option></select></label>
      <label>Tools <select id="tool-server" name="tools" aria-describedby="tools-hint"><option value="">no tools</option></select></label>
      <div class="actions">
        <button id="start-btn" type="submit">Start session</button>
        <button id="release" type="button" disabled>Release</button>
      </div>
    </form>
    <p id="tools-hint" class="hint"></p>
    <p id="queue" role="status" aria-live="polite" hidden></p>
    <div class="video-box">
      <video id="video" playsinline aria-label="The avatar"></video>
      <div class="overlay"><span id="state-badge" class="badge">no session</span><span id="clock" class="badge" aria-label="Session clock" hidden>0:00 / 0:00</span></div>
    </div>
    <div class="row">
      <button id="mic" type="button" aria-pressed="false" disabled>Microphone off</button>
      <label class="meter">Mic level <meter id="level" min="0" max="1" value="0"></meter></label>
    </div>
    <form id="say" class="row">
      <label class="grow">Say something <input id="text" name="text" autocomplete="off" maxlength="4096" disabled placeholder="Type a turn and press Enter"></label>
      <button id="send" type="submit" disabled>Send</button>
    </form>
    <p id="problem" role="alert" class="problem"></p>
  </div>
  <div class="side">
    <h2>Transcript</h2>
    <ol id="transcript" aria-live="polite" aria-label="Transcript" data-empty="Start a session: the avatar greets you, then type or turn the microphone on."></ol>
    <p id="partial" class="partial" aria-live="polite"></p>
    <h2>Tool events</h2>
    <ol id="tools" aria-live="polite" aria-label="Tool events" data-empty="No tool calls yet. Pick a tool server under Tools before you start, then ask for what it does (svc.image: &quot;Please draw a picture of a lighthouse&quot;)."></ol>
  </div>
</section>
<section id="state" role="tabpanel" aria-labelledby="tab-state" hidden>
  <div class="row"><button id="refresh" type="button">Refresh</button><span id="state-when" role="status"></span></div>
  <div id="state-body"></div>
</section>
</main>
</body>
</html>`;
}

const CSS = `
:root { color-scheme: light dark; --bg: #f6f7f9; --fg: #1b1f24; --card: #fff; --line: #d0d7de; --accent: #0b5fff; --muted: #57606a; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --card: #161b22; --line: #30363d; --accent: #4c8dff; --muted: #9198a1; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--card); }
h1 { font-size: 18px; margin: 0; } h1 span { color: var(--muted); font-weight: 400; }
h2 { font-size: 15px; margin: 12px 0 6px; }
nav button { border: 1px solid var(--line); background: transparent; color: var(--fg); padding: 6px 14px; border-radius: 6px; font: inherit; cursor: pointer; }
nav button[aria-selected="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
main { padding: 12px 16px; }
#talk { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
#talk[hidden], #state[hidden] { display: none; }
.stage, .side { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; min-width: 0; }
.stage { container-type: inline-size; }
/* The start form is a grid whatever the option names' lengths: Avatar | Protocol, then
   Tools | the two buttons (which never part); a narrow stage stacks them. Selects take
   their cell's width and cut a long name with an ellipsis. */
#start { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 8px; align-items: end; margin: 0 0 10px; }
#start select { width: 100%; }
.actions { display: flex; gap: 8px; }
.actions button { white-space: nowrap; }
@container (max-width: 400px) { #start { grid-template-columns: minmax(0, 1fr); } }
.side { max-height: calc(100vh - 90px); overflow: auto; }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin: 0 0 10px; }
label { display: flex; flex-direction: column; font-size: 13px; color: var(--muted); gap: 2px; min-width: 0; max-width: 100%; }
select { max-width: 100%; text-overflow: ellipsis; }
.grow { flex: 1 1 200px; }
select, input, button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; min-height: 36px; }
button { cursor: pointer; }
button[type="submit"], #mic[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
button:disabled { opacity: .5; cursor: default; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.video-box { position: relative; background: #000; border-radius: 6px; overflow: hidden; aspect-ratio: 352 / 480; max-height: 52vh; margin: 0 auto 10px; }
video { width: 100%; height: 100%; object-fit: contain; display: block; }
.overlay { position: absolute; left: 8px; right: 8px; top: 8px; display: flex; justify-content: space-between; }
.badge { background: rgba(0,0,0,.65); color: #fff; padding: 2px 8px; border-radius: 10px; font-size: 13px; }
.meter { flex-direction: row; align-items: center; gap: 6px; }
meter { width: 140px; height: 14px; }
.problem { color: #cf222e; min-height: 1em; margin: 4px 0; }
ol { list-style: none; margin: 0; padding: 0; }
#transcript li, #tools li { padding: 6px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.who { font-weight: 600; }
.cut-note { color: var(--muted); font-style: italic; }
ol:empty::before { content: attr(data-empty); display: block; color: var(--muted); padding: 6px 8px; }
.hint { color: var(--muted); font-size: 13px; margin: -4px 0 8px; }
.hint:empty { display: none; }
.empty { color: var(--muted); }
#tools img { display: block; max-width: 192px; height: auto; margin-top: 6px; border-radius: 4px; }
.partial { color: var(--muted); font-style: italic; min-height: 1.4em; margin: 6px 8px; }
#queue { background: #fff8c5; color: #3b2300; border-radius: 6px; padding: 6px 10px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; margin-bottom: 8px; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 4px 6px; vertical-align: top; overflow-wrap: anywhere; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin-bottom: 12px; overflow-x: auto; }
code { font-size: 12px; }
@media (max-width: 760px) {
  #talk { grid-template-columns: 1fr; }
  .side { max-height: none; }
  .video-box { max-height: 36vh; }
  main { padding: 8px; }
  /* Tables become one block per row, each cell labelled by its column. */
  .card thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .card table, .card tbody, .card tr { display: block; }
  .card tr { border-bottom: 1px solid var(--line); padding: 6px 0; }
  .card td { display: grid; grid-template-columns: 38% 1fr; gap: 6px; border: 0; padding: 1px 0; }
  .card td::before { content: attr(data-label); color: var(--muted); overflow-wrap: anywhere; }
}
`;
