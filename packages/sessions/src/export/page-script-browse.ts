/**
 * Part of the page's script (see page-script.ts): turns rendered in chunks as the reader scrolls, search
 * over the data (rendering up to the match it shows), the branch switch and the theme, and the start.
 */
export const SCRIPT_BROWSE = String.raw`// ---- lazy rendering ----
function renderMore(upTo) {
  var end = Math.min(turns.length, Math.max(rendered + CHUNK, upTo === undefined ? 0 : upTo + 1));
  var frag = document.createDocumentFragment();
  for (; rendered < end; rendered++) {
    nodes[rendered] = renderTurn(turns[rendered]);
    frag.appendChild(nodes[rendered]);
  }
  list.appendChild(frag);
}
function replaceTurn(i) {
  if (i >= rendered) return;
  var fresh = renderTurn(turns[i]);
  list.replaceChild(fresh, nodes[i]);
  nodes[i] = fresh;
}
var observer = new IntersectionObserver(function (entries) {
  for (var i = 0; i < entries.length; i++) if (entries[i].isIntersecting && rendered < turns.length) renderMore();
  // Still in view after a chunk (short turns, tall screen): keep going on the next frame.
  if (rendered < turns.length) requestAnimationFrame(function () {
    var r = sentinel.getBoundingClientRect();
    if (r.top < window.innerHeight + 1500) renderMore();
  });
}, { rootMargin: '1500px 0px' });
observer.observe(sentinel);

// ---- search ----
function haystack(i) {
  if (haystacks[i] === undefined) {
    var parts = [];
    (turns[i].items || []).forEach(function (it) { parts.push(itemText(it)); });
    haystacks[i] = parts.join('\n').toLowerCase();
  }
  return haystacks[i];
}
function runSearch() {
  query = search.value.trim().toLowerCase();
  matches = [];
  current = -1;
  if (query) for (var i = 0; i < turns.length; i++) if (haystack(i).indexOf(query) >= 0) matches.push(i);
  for (var j = 0; j < rendered; j++) replaceTurn(j);
  count.textContent = query ? (matches.length ? '0/' + matches.length : 'none') : '';
  if (matches.length) go(1);
}
function go(step) {
  if (!matches.length) return;
  current = (current + step + matches.length) % matches.length;
  var i = matches[current];
  if (i >= rendered) renderMore(i);
  if (turns[i].off || (turns[i].items || []).every(function (it) { return it.off; })) setBranch('all');
  count.textContent = (current + 1) + '/' + matches.length;
  var node = nodes[i];
  var marks = node.querySelectorAll('mark');
  var prevCur = list.querySelectorAll('mark.cur');
  for (var k = 0; k < prevCur.length; k++) prevCur[k].classList.remove('cur');
  var target = marks.length ? marks[0] : node;
  if (marks.length) marks[0].classList.add('cur');
  target.scrollIntoView({ block: 'center' });
}
var timer = 0;
search.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(runSearch, 150); });
search.addEventListener('keydown', function (e) {
  if (e.key === 'Enter') { e.preventDefault(); clearTimeout(timer); if (search.value.trim().toLowerCase() !== query) runSearch(); else go(e.shiftKey ? -1 : 1); }
});
prev.addEventListener('click', function () { go(-1); });
next.addEventListener('click', function () { go(1); });

// ---- branches, theme ----
function setBranch(mode) {
  branch.value = mode;
  document.body.classList.toggle('hide-off', mode === 'active');
}
branch.addEventListener('change', function () { setBranch(branch.value); });
setBranch('active');
function setTheme(t) {
  document.documentElement.setAttribute('data-theme', t);
  try { localStorage.setItem('sessiontape-theme', t); } catch (e) { /* storage can be disabled: the choice lasts for this page */ }
}
var saved = null;
try { saved = localStorage.getItem('sessiontape-theme'); } catch (e) { saved = null; }
setTheme(saved === 'dark' || saved === 'light' ? saved : (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
theme.addEventListener('click', function () {
  setTheme(document.documentElement.getAttribute('data-theme') === 'dark' ? 'light' : 'dark');
});

renderHeader();
renderMore();

function complete() {
  readIslands();
  renderHeader();
  renderUsage();
  pending.hidden = meta.pending !== true;
  var r = sentinel.getBoundingClientRect();
  if (r.top < window.innerHeight + 1500) renderMore();
  if (meta.live) {
    // After the first frame is painted: the stream's first batches must not hold up the first paint. A timer
    // too, since a tab in the background gets no animation frames.
    var url = meta.live, started = false;
    var start = function () { if (!started) { started = true; follow(url); } };
    requestAnimationFrame(function () { setTimeout(start, 0); });
    setTimeout(start, 200);
  }
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', complete);
else complete();

`
