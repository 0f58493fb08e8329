/**
 * Part of the page's script (see page-script.ts): filters by kind (user, assistant, thinking, tool,
 * system — a class on the body hides every item of a kind, in the turns and on the timeline) and the
 * timeline, an inline SVG with one row per kind and a mark where items of that kind happened (at most one
 * mark per pixel column and row, so its size is bounded whatever the session's length); a mark takes the
 * reader to its turn.
 */
export const SCRIPT_FILTERS = String.raw`// ---- filters by kind ----
var filters = el('span', 'filters');
filters.setAttribute('role', 'group');
filters.setAttribute('aria-label', 'Show kinds');
KINDS.forEach(function (kind) {
  var label = el('label', 'k-' + kind);
  var box = el('input');
  box.type = 'checkbox';
  box.checked = true;
  box.value = kind;
  box.addEventListener('change', function () { document.body.classList.toggle('hide-k-' + kind, !box.checked); });
  label.appendChild(box);
  label.appendChild(document.createTextNode(kind));
  filters.appendChild(label);
});
bar.insertBefore(filters, branch);

// ---- timeline ----
var timeline = el('section', 'timeline');
timeline.hidden = true;
main.insertBefore(timeline, list);
function goTurn(n) {
  var i = n - 1;
  if (!(i >= 0 && i < turns.length)) return;
  if (i >= rendered) renderMore(i);
  if (turns[i].off) setBranch('all');
  nodes[i].scrollIntoView({ block: 'start' });
}
function renderTimeline() {
  timeline.textContent = '';
  var t0 = Date.parse(meta.started || ''), t1 = Date.parse(meta.ended || '');
  if (!(t1 > t0) || !turns.length) { timeline.hidden = true; return; }
  timeline.hidden = false;
  timeline.appendChild(el('h2', null, 'Timeline'));
  var W = 1000, ROW = 16, H = ROW * KINDS.length;
  var svg = document.createElementNS(SVGNS, 'svg');
  svg.setAttribute('class', 'tl');
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'When each kind of item happened; a mark opens its turn');
  var seen = {};
  function mark(turn, item) {
    var t = Date.parse(item.ts || turn.ts || '');
    if (isNaN(t)) return;
    var kind = kindOf(item), row = KINDS.indexOf(kind);
    var x = Math.min(W - 3, Math.max(0, Math.floor(((t - t0) / (t1 - t0)) * (W - 3))));
    if (seen[row + ':' + x]) return;
    seen[row + ':' + x] = 1;
    var r = document.createElementNS(SVGNS, 'rect');
    r.setAttribute('class', 'k-' + kind + (item.off || turn.off ? ' off' : ''));
    r.setAttribute('x', String(x)); r.setAttribute('y', String(row * ROW + 2));
    r.setAttribute('width', '3'); r.setAttribute('height', String(ROW - 4));
    r.setAttribute('data-n', String(turn.n));
    var tt = document.createElementNS(SVGNS, 'title');
    tt.textContent = 'Turn ' + turn.n + ' · ' + kind + ' · ' + fmtTime(item.ts || turn.ts);
    r.appendChild(tt);
    svg.appendChild(r);
  }
  for (var i = 0; i < turns.length; i++) {
    var items = turns[i].items || [];
    for (var j = 0; j < items.length; j++) {
      mark(turns[i], items[j]);
      (items[j].items || []).forEach(function (sub) { mark(turns[i], sub); });
    }
  }
  svg.addEventListener('click', function (e) {
    var n = e.target && e.target.getAttribute ? e.target.getAttribute('data-n') : null;
    if (n) goTurn(Number(n));
  });
  timeline.appendChild(svg);
  var legend = el('div', 'legend');
  KINDS.forEach(function (kind) {
    var s = el('span', 'k-' + kind);
    s.appendChild(el('i', 'k-' + kind));
    s.appendChild(document.createTextNode(kind));
    legend.appendChild(s);
  });
  legend.appendChild(el('span', null, fmtTime(meta.started) + ' – ' + fmtTime(meta.ended)));
  timeline.appendChild(legend);
}

`
