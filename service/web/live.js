// Keeps a screen's copy of a game current. The view (what `load` fetches) says where things
// stand; the event stream says that something happened, and tells it for the log. Each new
// batch of events past the loaded version triggers one reload; reloads never overlap, and a
// reload answered with an older version than one already shown is dropped.
import { followEvents } from './api.js';

// `first`: a snapshot the screen already loaded, shown at once.
export function liveGame(id, { load, first, onChange, onEvents, onStatus = () => {}, key }) {
  const stop = new AbortController();
  const seen = new Set();
  let shown = -1, newest = 0, running = null, again = false, againIfNewer = false, behind = 0;

  // `ifNewer`: only worth it if the stream has told of a version past the one shown (a
  // reload already running then does not go round again for it).
  async function reload({ ifNewer = false } = {}) {
    if (stop.signal.aborted) return;
    if (running) {
      if (ifNewer) againIfNewer = true; else again = true;
      return running;
    }
    running = (async () => {
      do {
        again = againIfNewer = false;
        try {
          const snap = await load();
          if (stop.signal.aborted) return;
          if (snap.version >= shown) { shown = snap.version; onChange(snap); }
        } catch (err) {
          if (!stop.signal.aborted) onStatus('error', err);
        }
      } while (again || (againIfNewer && newest > shown));
    })().finally(() => { running = null; });
    await running;
    // The stream got ahead of the answer (it raced a commit): look once more, a few times.
    if (newest > shown && !stop.signal.aborted && behind++ < 5) setTimeout(reload, 200);
    else if (newest <= shown) behind = 0;
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
      if (newest > shown) reload({ ifNewer: true });
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
    // A command's own answer names its events: log them at once (the stream repeats them).
    record(events) {
      const fresh = events.filter((item) => !seen.has(item.version));
      fresh.forEach((item) => seen.add(item.version));
      if (fresh.length) onEvents(fresh);
    },
    restream,
    closeStream: () => stream?.abort(),
    stop: () => stop.abort(),
  };
}
