/**
 * The page's script (inline, hashed into the Content-Security-Policy, so it is the only script that can
 * run). It reads the turns from a JSON island and builds the page with DOM calls only: every transcript
 * string reaches the page through textContent / createTextNode, never as markup, and the only attribute
 * set from transcript data is a link's href, after checking that it is http(s).
 *
 * Turns are rendered in chunks as the reader scrolls (an IntersectionObserver on a sentinel), so a
 * 10,000-turn session paints its first screen at once. Search runs over the data, not the DOM, and renders
 * up to the match it shows. With `meta.live`, an EventSource replaces or appends turns as the server
 * sends them. Kept to ES2017 and plain string concatenation (it lives in a template string).
 */
export const PAGE_SCRIPT = String.raw`(function () {
'use strict';
var CHUNK = 40;
var turns = [];
var meta = {};
var islandsRead = 0;
// Islands parsed so far: at first only the one before this script; the rest once the document is complete.
function readIslands() {
  var els = document.querySelectorAll('script.st-turns');
  for (; islandsRead < els.length; islandsRead++) {
    var part = JSON.parse(els[islandsRead].textContent || '[]');
    for (var i = 0; i < part.length; i++) turns.push(part[i]);
  }
  var metaEl = document.getElementById('st-meta');
  if (metaEl) meta = JSON.parse(metaEl.textContent || '{}');
}
readIslands();
var main = document.getElementById('app');
var SVGNS = 'http://www.w3.org/2000/svg';
var NUM = new Intl.NumberFormat('en-US');
var rendered = 0;
var nodes = [];
var query = '';
var matches = [];
var current = -1;
var haystacks = [];

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function fmtTime(ts) {
  var m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(ts || '');
  return m ? m[1] + ' ' + m[2] + (/Z$/.test(ts) ? ' UTC' : '') : (ts || '');
}
function fmtUsage(u) {
  var s = NUM.format(u.inputTokens) + ' in';
  if (u.cacheReadInputTokens) s += ' (' + NUM.format(u.cacheReadInputTokens) + ' cached)';
  return s + ' · ' + NUM.format(u.outputTokens) + ' out';
}

// Text with http(s) URLs as links whose visible text is the URL itself, and the search query marked.
var URL_RE = /https?:\/\/[^\s<>"'\u0060]+/g;
function appendMarked(parent, text) {
  if (!query) { parent.appendChild(document.createTextNode(text)); return; }
  var lower = text.toLowerCase();
  var at = 0;
  for (;;) {
    var i = lower.indexOf(query, at);
    if (i < 0) break;
    if (i > at) parent.appendChild(document.createTextNode(text.slice(at, i)));
    parent.appendChild(el('mark', null, text.slice(i, i + query.length)));
    at = i + query.length;
  }
  if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
}
function appendText(parent, text) {
  text = String(text);
  var at = 0;
  URL_RE.lastIndex = 0;
  var m;
  while ((m = URL_RE.exec(text)) !== null) {
    var url = m[0].replace(/[).,;:!?\]]+$/, '');
    if (m.index > at) appendMarked(parent, text.slice(at, m.index));
    var ok = false;
    try { var u = new URL(url); ok = u.protocol === 'http:' || u.protocol === 'https:'; } catch (e) { ok = false; }
    if (ok) {
      var a = el('a');
      a.href = url;
      a.rel = 'noopener noreferrer nofollow';
      a.target = '_blank';
      appendMarked(a, url);
      parent.appendChild(a);
    } else {
      appendMarked(parent, url);
    }
    at = m.index + url.length;
    URL_RE.lastIndex = at;
  }
  if (at < text.length) appendMarked(parent, text.slice(at));
  return parent;
}
function textBlock(cls, text) { return appendText(el('div', cls), text); }
function preBlock(text, cls) { return appendText(el('pre', cls), text); }
function has(text) { return !!query && String(text).toLowerCase().indexOf(query) >= 0; }
function offTag(parent, item) { if (item.off) parent.appendChild(el('span', 'off-tag', 'side branch')); }
function firstLine(text) {
  var line = String(text).replace(/^[\s{\[]+/, '').split('\n')[0];
  return line.length > 90 ? line.slice(0, 90) + '…' : line;
}

function renderItem(item) {
  var box, sum, inner;
  if (item.t === 'text') {
    box = el('div', 'msg ' + item.role);
    var who = el('div', 'who', (item.role === 'user' ? 'User' : 'Assistant') + (item.model ? ' · ' + item.model : ''));
    offTag(who, item);
    box.appendChild(who);
    box.appendChild(textBlock('body', item.text));
  } else if (item.t === 'thinking') {
    box = el('details', 'thinking');
    sum = el('summary', null, 'Thinking');
    sum.appendChild(el('span', 'ts', NUM.format(item.text.length) + ' characters'));
    offTag(sum, item);
    box.appendChild(sum);
    inner = el('div', 'inner');
    inner.appendChild(textBlock('body', item.text));
    box.appendChild(inner);
    if (has(item.text)) box.open = true;
  } else if (item.t === 'tool' || item.t === 'result') {
    box = el('details', 'tool');
    sum = el('summary');
    var status = item.output === undefined ? ['wait', 'no result'] : item.isError ? ['err', 'error'] : ['ok', 'ok'];
    sum.appendChild(el('span', 'st ' + status[0], status[1]));
    sum.appendChild(el('span', 'tn', item.t === 'tool' ? item.name : 'result'));
    sum.appendChild(el('span', 'ts', item.t === 'tool' ? firstLine(item.input) : 'for ' + item.callId));
    offTag(sum, item);
    box.appendChild(sum);
    inner = el('div', 'inner io');
    if (item.t === 'tool') {
      inner.appendChild(el('div', 'label', 'Input'));
      inner.appendChild(preBlock(item.input));
    }
    if (item.output !== undefined) {
      inner.appendChild(el('div', 'label', item.isError ? 'Result (error)' : 'Result'));
      inner.appendChild(preBlock(item.output, item.isError ? 'err' : ''));
    }
    box.appendChild(inner);
    if (has(item.input || '') || has(item.output || '') || has(item.name || '')) box.open = true;
  } else if (item.t === 'compaction') {
    box = el('details', 'compaction');
    sum = el('summary', null, 'Context compacted');
    offTag(sum, item);
    box.appendChild(sum);
    inner = el('div', 'inner');
    inner.appendChild(textBlock('body', item.summary || '(no summary recorded)'));
    box.appendChild(inner);
    if (has(item.summary || '')) box.open = true;
  } else if (item.t === 'marker') {
    var names = { recovered: 'Recovered', resumed: 'Resumed', error: 'Error', notice: 'Notice' };
    box = el('div', 'marker ' + item.marker);
    var b = el('b', null, (names[item.marker] || 'Note') + ': ');
    box.appendChild(b);
    appendText(box, item.text);
    offTag(box, item);
  } else {
    box = el('div', 'marker title');
    box.appendChild(el('b', null, 'Title: '));
    appendText(box, item.title || '');
  }
  if (item.off) box.classList.add('off');
  return box;
}

function renderTurn(turn) {
  var art = el('article', 'turn ' + turn.role + (turn.off ? ' off' : ''));
  art.id = 't-' + turn.n;
  art.setAttribute('data-n', String(turn.n));
  var head = el('div', 'turn-head');
  head.appendChild(el('span', 'n', '#' + turn.n));
  head.appendChild(el('span', 'role', turn.role === 'system' ? 'before the first message' : 'turn'));
  if (turn.ts) head.appendChild(el('time', null, fmtTime(turn.ts)));
  if (turn.off) head.appendChild(el('span', 'off-tag', 'side branch'));
  if (turn.usage) head.appendChild(el('span', 'u', fmtUsage(turn.usage)));
  art.appendChild(head);
  var items = turn.items || [];
  for (var i = 0; i < items.length;) {
    var item = items[i];
    if (item.sub === undefined) { art.appendChild(renderItem(item)); i++; continue; }
    var agent = item.sub;
    var box = el('div', 'sub');
    box.appendChild(el('div', 'sub-head', 'Subagent' + (agent ? ' ' + agent : '')));
    while (i < items.length && items[i].sub === agent) box.appendChild(renderItem(items[i++]));
    art.appendChild(box);
  }
  return art;
}

// ---- page shell ----
var top = el('header', 'top');
var h1 = el('h1');
var facts = el('div', 'facts');
top.appendChild(h1);
top.appendChild(facts);
var bar = el('div', 'bar');
var search = el('input');
search.type = 'search';
search.placeholder = 'Search this session';
search.setAttribute('aria-label', 'Search this session');
var prev = el('button', null, '↑');
prev.title = 'Previous match (Shift+Enter)';
var next = el('button', null, '↓');
next.title = 'Next match (Enter)';
var count = el('span', 'count', '');
var branch = el('select');
branch.setAttribute('aria-label', 'Branches');
[['active', 'Active branch'], ['all', 'All branches']].forEach(function (o) {
  var opt = el('option', null, o[1]);
  opt.value = o[0];
  branch.appendChild(opt);
});
var theme = el('button', null, '◐');
theme.title = 'Dark / light';
var status = el('span', 'status', '');
[search, prev, next, count, branch, theme, status].forEach(function (n) { bar.appendChild(n); });
var usage = el('section', 'usage');
var list = el('div', 'turns');
var pending = el('div', 'pending', 'The agent is writing a record…');
pending.hidden = true;
var sentinel = el('div', 'more');
var foot = el('footer');
[top, bar, usage, list, pending, sentinel, foot].forEach(function (n) { main.appendChild(n); });

function anyOff() {
  for (var i = 0; i < turns.length; i++) {
    if (turns[i].off) return true;
    var items = turns[i].items || [];
    for (var j = 0; j < items.length; j++) if (items[j].off) return true;
  }
  return false;
}
function renderHeader() {
  var title = meta.title || (meta.sessionId ? 'Session ' + meta.sessionId : 'Session');
  h1.textContent = title;
  document.title = title + ' · sessiontape';
  facts.textContent = '';
  function fact(name, value) {
    if (value === undefined || value === null || value === '') return;
    var s = el('span');
    s.appendChild(el('b', null, name + ' '));
    s.appendChild(document.createTextNode(String(value)));
    facts.appendChild(s);
  }
  fact('Agent', meta.agent ? meta.agent + (meta.agentVersion ? ' ' + meta.agentVersion : '') : '');
  fact('Model', meta.model);
  fact('Directory', meta.cwd);
  fact('Git branch', meta.gitBranch);
  fact('Session', meta.sessionId);
  fact('Continues', meta.parentSessionId);
  fact('Started', meta.started ? fmtTime(meta.started) : '');
  fact('Last', meta.ended ? fmtTime(meta.ended) : '');
  fact('Turns', NUM.format(turns.length));
  if (meta.redaction) fact('Redacted', NUM.format(meta.redaction.total) + ' secrets');
  branch.hidden = !anyOff();
  foot.textContent = (meta.live ? 'Followed live by sessiontape' : 'Exported by sessiontape') + (meta.file ? ' from ' + meta.file : '') +
    (meta.problems ? ' · the reader found ' + meta.problems + ' problem' + (meta.problems === 1 ? '' : 's') + ' in the file' : '');
}

function renderUsage() {
  usage.textContent = '';
  var t = meta.total;
  if (!t || !t.totalTokens) { usage.hidden = true; return; }
  usage.hidden = false;
  usage.appendChild(el('h2', null, 'Token usage'));
  var grid = el('div', 'totals');
  [['Input', t.inputTokens], ['Cache reads', t.cacheReadInputTokens], ['Cache writes', t.cacheCreationInputTokens],
   ['Output', t.outputTokens], ['Reasoning', t.reasoningOutputTokens], ['Total', t.totalTokens]].forEach(function (r) {
    var d = el('div', null, r[0]);
    d.appendChild(el('b', null, NUM.format(r[1] || 0)));
    grid.appendChild(d);
  });
  usage.appendChild(grid);
  // One bar per bucket of turns (at most 240 buckets): input stacked under output.
  var buckets = Math.min(240, turns.length);
  if (buckets === 0) return;
  var per = Math.ceil(turns.length / buckets);
  buckets = Math.ceil(turns.length / per);
  var ins = [], outs = [], max = 0;
  for (var b = 0; b < buckets; b++) {
    var i0 = 0, o0 = 0;
    for (var k = b * per; k < Math.min(turns.length, (b + 1) * per); k++) {
      var u = turns[k].usage;
      if (u) { i0 += u.inputTokens; o0 += u.outputTokens; }
    }
    ins.push(i0); outs.push(o0);
    max = Math.max(max, i0 + o0);
  }
  if (max === 0) return;
  // A few turns get narrow bars on the left, not a few wide slabs.
  var W = 1000, H = 120, pad = 14, bw = W / Math.max(buckets, 40);
  var svg = document.createElementNS(SVGNS, 'svg');
  svg.setAttribute('class', 'chart');
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Tokens per turn');
  function rect(cls, x, y, w, h, label) {
    var r = document.createElementNS(SVGNS, 'rect');
    r.setAttribute('class', cls);
    r.setAttribute('x', String(x)); r.setAttribute('y', String(y));
    r.setAttribute('width', String(Math.max(w, 0.5))); r.setAttribute('height', String(Math.max(h, 0)));
    var tt = document.createElementNS(SVGNS, 'title');
    tt.textContent = label;
    r.appendChild(tt);
    svg.appendChild(r);
  }
  for (var j = 0; j < buckets; j++) {
    var hIn = (ins[j] / max) * (H - pad), hOut = (outs[j] / max) * (H - pad);
    var from = j * per + 1, to = Math.min(turns.length, (j + 1) * per);
    var label = (from === to ? 'Turn ' + from : 'Turns ' + from + '–' + to) + ': ' + NUM.format(ins[j]) + ' in, ' + NUM.format(outs[j]) + ' out';
    rect('in', j * bw + bw * 0.1, H - hIn, bw * 0.8, hIn, label);
    rect('out', j * bw + bw * 0.1, H - hIn - hOut, bw * 0.8, hOut, label);
  }
  var line = document.createElementNS(SVGNS, 'line');
  line.setAttribute('class', 'axis');
  line.setAttribute('x1', '0'); line.setAttribute('x2', String(W));
  line.setAttribute('y1', String(H - 0.5)); line.setAttribute('y2', String(H - 0.5));
  svg.appendChild(line);
  usage.appendChild(svg);
  var legend = el('div', 'legend');
  var l1 = el('span'); l1.appendChild(el('i', 'in')); l1.appendChild(document.createTextNode('input'));
  var l2 = el('span'); l2.appendChild(el('i', 'out')); l2.appendChild(document.createTextNode('output'));
  legend.appendChild(l1); legend.appendChild(l2);
  legend.appendChild(el('span', null, 'peak ' + NUM.format(max) + ' tokens' + (per > 1 ? ' per ' + per + ' turns' : ' per turn')));
  usage.appendChild(legend);
}

// ---- lazy rendering ----
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
    (turns[i].items || []).forEach(function (it) {
      parts.push(it.text || '', it.name || '', it.input || '', it.output || '', it.summary || '', it.title || '');
    });
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
  if (meta.live) follow(meta.live);
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', complete);
else complete();

// ---- live follow ----
function follow(url) {
  status.textContent = 'connecting…';
  var source = new EventSource(url);
  source.addEventListener('turns', function (e) {
    var msg = JSON.parse(e.data);
    var atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
    var allShown = rendered >= turns.length;
    for (var i = 0; i < msg.turns.length; i++) {
      var at = msg.from + i;
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
    if (allShown) renderMore(turns.length - 1);
    if (msg.meta) meta = msg.meta;
    renderHeader();
    renderUsage();
    if (atBottom && allShown) window.scrollTo(0, document.body.scrollHeight);
  });
  source.addEventListener('pending', function (e) { pending.hidden = JSON.parse(e.data) !== true; });
  source.addEventListener('open', function () { status.textContent = 'live'; status.className = 'status live'; });
  source.addEventListener('error', function () { status.textContent = 'reconnecting…'; status.className = 'status'; });
}
})();
`
