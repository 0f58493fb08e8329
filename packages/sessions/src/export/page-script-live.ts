/**
 * Part of the page's script (see page-script.ts): a live page's event stream. The server first sends the
 * whole session in batches (the turns the page came with again first: an unchanged one is not rendered
 * again), then what changes: turns replaced or appended from an index, records whose branch mark flips,
 * whether a line is being written, and `reset` when the file was found truncated or replaced: the page drops
 * every turn it shows and says so, and the file's turns follow from the first.
 */
export const SCRIPT_LIVE = String.raw`// ---- live follow ----
function sameTurn(a, b) { return a !== undefined && JSON.stringify(a) === JSON.stringify(b); }
function recordOf(id) { id = String(id); var hash = id.indexOf('#'); return hash < 0 ? id : id.slice(0, hash); }
// Styled through the CSSOM (the page's policy allows no style attribute, and its stylesheet is not ours).
var notice = el('div', 'notice', '');
notice.hidden = true;
notice.style.margin = '12px 0';
notice.style.padding = '8px 12px';
notice.style.border = '1px solid var(--line)';
notice.style.borderRadius = '8px';
main.insertBefore(notice, list);
var RESET_REASONS = { truncated: 'The file was cut shorter', replaced: 'Another file was put in its place', rewritten: 'Its first lines were rewritten', continued: 'The session went on in a new file' };
function follow(url) {
  status.textContent = 'connecting…';
  var source = new EventSource(url);
  // Nothing of what the page showed is kept: the file's turns come again from the first.
  source.addEventListener('reset', function (e) {
    var msg = JSON.parse(e.data);
    for (var k = 0; k < rendered; k++) list.removeChild(nodes[k]);
    turns.length = 0; nodes.length = 0; haystacks.length = 0; rendered = 0;
    matches = []; current = -1; count.textContent = '';
    notice.textContent = (RESET_REASONS[msg.reason] || 'The file changed') + ': the session is shown again from its start.';
    notice.hidden = false;
    renderHeader();
    renderUsage();
  });
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
  source.addEventListener('error', function () {
    // CLOSED: the server refused the stream (too many pages follow sessions, or the page's secret is no
    // longer valid): a reload tries again; otherwise the browser reconnects by itself.
    var closed = source.readyState === 2;
    status.textContent = closed ? 'not followed: reload to try again' : 'reconnecting…';
    status.className = 'status';
  });
}
`
