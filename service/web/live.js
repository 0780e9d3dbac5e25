// Keeps a screen's copy of a game current. The snapshot (what `load` fetches) says where
// things stand; the event stream says that something happened, and tells it for the log.
// Each new batch of events past the shown version triggers one reload; reloads never
// overlap, and a snapshot older than one already shown, or older than a version the page
// knows exists (its own command's answer, the stream's newest event), is never shown: the
// page would offer moves the game has moved past.
import { followEvents } from './api.js';

// `first`: a snapshot the screen already loaded, shown at once.
export function liveGame(id, { load, first, onChange, onEvents, onStatus = () => {}, key }) {
  const stop = new AbortController();
  const seen = new Set();
  // shown: the version on screen; newest: the newest the page knows of (stream, answers).
  let shown = -1, newest = 0, running = null, again = false, retry = null, backoff = 100;

  async function reload() {
    if (stop.signal.aborted) return;
    if (running) { again = true; return running; }
    clearTimeout(retry);
    running = (async () => {
      do {
        again = false;
        try {
          const snap = await load();
          if (stop.signal.aborted) return;
          // Older than what the page knows happened: a read that raced a commit.
          if (snap.version >= shown && snap.version >= newest) { shown = snap.version; onChange(snap); }
        } catch (err) {
          if (!stop.signal.aborted) onStatus('error', err);
        }
      } while (again);
    })().finally(() => { running = null; });
    await running;
    // Still behind what the stream told: look again, less and less often, until it shows.
    if (newest > shown && !stop.signal.aborted) {
      retry = setTimeout(reload, backoff);
      backoff = Math.min(backoff * 2, 2000);
    } else backoff = 100;
  }

  if (first) { shown = first.version; onChange(first); } else reload();

  // The stream is redacted for who the caller was when it opened: when the caller's seat
  // changes (resigns), `closeStream` before and `restream` after, from the last event received.
  let wasDown = false, stream = null;
  function restream() {
    stream?.abort();
    stream = new AbortController();
    stop.signal.addEventListener('abort', () => stream.abort());
    followEvents(id, newest, (batch) => {
      const fresh = batch.filter((item) => !seen.has(item.version));
      fresh.forEach((item) => seen.add(item.version));
      if (fresh.length) onEvents(fresh);
      newest = Math.max(newest, batch.at(-1).version);
      if (newest > shown) reload();
    }, {
      signal: stream.signal,
      key,
      onStatus(status, err) {
        // Back after a dropped connection or a restart: what we show may be stale.
        if (status === 'live' && wasDown) reload();
        wasDown = status === 'reconnecting';
        onStatus(status, err);
      },
    });
  }
  restream();

  return {
    reload,
    // A command's answer: its version exists, so nothing older is shown from now on, and its
    // events are logged at once (the stream repeats them).
    // `snap`: the turn that came with the answer, shown at once unless the page knows of a
    // later version (then it reads one).
    answered(version, events, snap = null) {
      newest = Math.max(newest, version);
      const fresh = events.filter((item) => !seen.has(item.version));
      fresh.forEach((item) => seen.add(item.version));
      if (fresh.length) onEvents(fresh);
      if (snap && snap.version >= newest && snap.version > shown) { shown = newest = snap.version; onChange(snap); }
      return newest > shown ? reload() : running;
    },
    restream,
    closeStream: () => stream?.abort(),
    stop: () => { clearTimeout(retry); stop.abort(); },
  };
}
