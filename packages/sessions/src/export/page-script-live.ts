/**
 * Part of the page's script (see page-script.ts): a live page's event stream. The server first sends the
 * whole session in batches (the turns the page came with again first: an unchanged one is not rendered
 * again), then what changes: turns replaced or appended from an index, records whose branch mark flips,
 * and whether a line is being written.
 */
export const SCRIPT_LIVE = String.raw`// ---- live follow ----
function sameTurn(a, b) { return a !== undefined && JSON.stringify(a) === JSON.stringify(b); }
function recordOf(id) { id = String(id); var hash = id.indexOf('#'); return hash < 0 ? id : id.slice(0, hash); }
function follow(url) {
  status.textContent = 'connecting…';
  var source = new EventSource(url);
  source.addEventListener('turns', function (e) {
    var msg = JSON.parse(e.data);
    var atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
    var allShown = rendered >= turns.length;
    for (var i = 0; i < msg.turns.length; i++) {
      var at = msg.from + i;
      if (sameTurn(turns[at], msg.turns[i])) continue;
      turns[at] = msg.turns[i];
      haystacks[at] = undefined;
      replaceTurn(at);
    }
    if (msg.length !== undefined && msg.length < turns.length) {
      for (var k = msg.length; k < rendered; k++) list.removeChild(nodes[k]);
      turns.length = msg.length;
      nodes.length = Math.min(nodes.length, msg.length);
      rendered = Math.min(rendered, msg.length);
    }
    // One chunk more, not the whole batch: the rest is rendered as the reader scrolls.
    if (allShown) renderMore();
    if (msg.meta) meta = msg.meta;
    renderHeader();
    renderUsage();
    if (atBottom && allShown) window.scrollTo(0, document.body.scrollHeight);
  });
  // Records now off the active branch, or back on it: their items' marks flip, and a turn is off when the
  // user message that starts it is.
  source.addEventListener('branch', function (e) {
    var msg = JSON.parse(e.data);
    var flip = new Map();
    msg.off.forEach(function (id) { flip.set(id, true); });
    msg.on.forEach(function (id) { flip.set(id, false); });
    for (var t = 0; t < turns.length; t++) {
      var items = turns[t].items || [];
      var changed = false;
      for (var k = 0; k < items.length; k++) {
        var off = flip.get(recordOf(items[k].id));
        if (off === undefined || !!items[k].off === off) continue;
        if (off) items[k].off = true; else delete items[k].off;
        changed = true;
      }
      if (!changed) continue;
      if (turns[t].role === 'user' && items.length > 0 && items[0].off === true) turns[t].off = true;
      else delete turns[t].off;
      replaceTurn(t);
    }
    renderHeader();
  });
  source.addEventListener('pending', function (e) { pending.hidden = JSON.parse(e.data) !== true; });
  source.addEventListener('open', function () { status.textContent = 'live'; status.className = 'status live'; });
  source.addEventListener('error', function () { status.textContent = 'reconnecting…'; status.className = 'status'; });
}
`
