// Reads a join link with the camera: each frame is drawn small and grey on a canvas and sent to
// Rust, which finds and decodes the QR code. No decoding here, no library: the bytes only.

import { ipc } from './ipc.js';

// The width frames are read at: enough for a QR code held at arm's length, small to send.
const WIDTH = 480;
const EVERY_MS = 250;
// Frames in a row whose reading failed (not "no code in view": an error) before the scan stops
// and says so.
const MISSES_AT_MOST = 12;

export const canScan = () => !!navigator.mediaDevices?.getUserMedia;

// The frame's bytes: width and height (u16, little end first), then one grey byte a pixel.
export function frameBytes(source, width, height) {
  const scale = Math.min(1, WIDTH / width);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(source, 0, 0, w, h);
  const rgba = ctx.getImageData(0, 0, w, h).data;
  const out = new Uint8Array(4 + w * h);
  out[0] = w & 255; out[1] = w >> 8; out[2] = h & 255; out[3] = h >> 8;
  for (let i = 0, j = 4; i < rgba.length; i += 4, j += 1) {
    out[j] = (rgba[i] * 77 + rgba[i + 1] * 150 + rgba[i + 2] * 29) >> 8;
  }
  return out;
}

// The text of the QR code in view of `source` (a video, an image, a canvas), or null.
export function readFrame(source, width, height) {
  return ipc.scanQr(frameBytes(source, width, height));
}

// Shows the back camera in `video` and calls `found(text)` with the first join link read;
// `failed(e)` when the camera cannot be had. Gives the function that stops it.
export function startScan(video, found, failed) {
  let stream = null;
  let timer = null;
  let stopped = false;
  let misses = 0;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    stream?.getTracks().forEach((t) => t.stop());
    video.srcObject = null;
  };
  const look = async () => {
    if (stopped) return;
    try {
      if (video.videoWidth) {
        const text = await readFrame(video, video.videoWidth, video.videoHeight);
        // Cancelled (or the screen left) while the frame was read: no join behind the back.
        if (stopped) return;
        if (text && text.startsWith('partie://join?')) { stop(); found(text); return; }
      }
      misses = 0;
    } catch (e) {
      // A frame that could not be read: the next one may. Many in a row is the reading that
      // fails, not the frame: said, rather than a camera running for ever and reading nothing.
      misses += 1;
      if (misses >= MISSES_AT_MOST && !stopped) { stop(); failed(e); return; }
    }
    if (!stopped) timer = setTimeout(look, EVERY_MS);
  };
  navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
    .then((s) => {
      if (stopped) { s.getTracks().forEach((t) => t.stop()); return; }
      stream = s;
      video.srcObject = s;
      video.play().catch(() => {});
      look();
    })
    .catch((e) => {
      // Cancelled (or the screen left) before the camera was refused: nothing to say.
      if (stopped) return;
      stop();
      failed(e);
    });
  return stop;
}
