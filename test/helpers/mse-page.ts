/**
 * A tiny loopback MSE player for browser tests: GET / serves a page that opens a WebSocket,
 * reads the first text message `{ mime }`, creates a MediaSource SourceBuffer with exactly
 * that mime, appends every binary message in arrival order (the /mse contract of spec 4.6)
 * and plays. `window.probe()` samples the playing video into a canvas and reports what a
 * viewer would notice: currentTime, decoded frames, decoded audio bytes, and the mean
 * brightness of a region (the mouth).
 */
export const MSE_PAGE = `<!doctype html>
<html><body>
<video id="v" muted playsinline width="352" height="480"></video>
<canvas id="c" width="352" height="480"></canvas>
<script>
const video = document.getElementById('v');
const canvas = document.getElementById('c');
const g = canvas.getContext('2d', { willReadFrequently: true });
window.log = [];
const ms = new MediaSource();
video.src = URL.createObjectURL(ms);
ms.addEventListener('sourceopen', () => {
  const ws = new WebSocket('ws://' + location.host + '/stream');
  ws.binaryType = 'arraybuffer';
  let sb = null;
  const queue = [];
  const feed = () => {
    if (!sb || sb.updating || queue.length === 0) return;
    try { sb.appendBuffer(queue.shift()); } catch (e) { window.log.push('append: ' + e.message); }
  };
  ws.onmessage = (m) => {
    if (typeof m.data === 'string') {
      const { mime } = JSON.parse(m.data);
      window.mime = mime;
      window.supported = MediaSource.isTypeSupported(mime);
      sb = ms.addSourceBuffer(mime);
      sb.addEventListener('updateend', feed);
      sb.addEventListener('error', () => window.log.push('sourcebuffer error'));
      return;
    }
    queue.push(m.data);
    feed();
    if (video.paused) video.play().catch((e) => window.log.push('play: ' + e.message));
  };
});
video.addEventListener('error', () => window.log.push('video error ' + (video.error && video.error.message)));
window.probe = (x, y, w, h) => {
  g.drawImage(video, 0, 0, 352, 480);
  const d = g.getImageData(x, y, w, h).data;
  let sum = 0;
  for (let i = 0; i < d.length; i += 4) sum += d[i] + d[i + 1] + d[i + 2];
  const q = video.getVideoPlaybackQuality();
  return {
    t: video.currentTime,
    region: sum / (d.length / 4) / 3,
    frames: q.totalVideoFrames,
    dropped: q.droppedVideoFrames,
    audioBytes: video.webkitAudioDecodedByteCount,
    buffered: video.buffered.length ? [video.buffered.start(0), video.buffered.end(video.buffered.length - 1)] : null,
    ranges: video.buffered.length,
  };
};
</script></body></html>`;
