/**
 * Part of the page's script (page-script.ts puts the parts together in one function scope, so they share
 * its variables): the data read from the JSON islands, and how a turn becomes DOM — text, links and search
 * marks through createTextNode/textContent only, a link's href set only when `new URL()` says http(s).
 */
export const SCRIPT_RENDER = String.raw`var CHUNK = 40;
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
    box.appendChild(appendStyled(el('div', 'body'), item.text, item.ansi));
  } else if (item.t === 'image') {
    box = el('div', 'msg ' + item.role);
    var whoImg = el('div', 'who', item.role === 'user' ? 'User' : 'Assistant');
    offTag(whoImg, item);
    box.appendChild(whoImg);
    box.appendChild(imageBlock(item.image || {}));
  } else if (item.t === 'command') {
    box = commandBox(item);
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
    sum.appendChild(el('span', 'ts', item.t === 'tool' ? firstLine(item.diff ? item.diff.replace(/^@@ /, '') : item.input) : 'for ' + item.callId));
    if (item.items && item.items.length) sum.appendChild(el('span', 'st sub-tag', 'subagent'));
    offTag(sum, item);
    box.appendChild(sum);
    inner = el('div', 'inner io');
    if (item.t === 'tool' && item.input !== '{}') {
      inner.appendChild(el('div', 'label', 'Input'));
      inner.appendChild(preBlock(item.input));
    }
    if (item.diff) {
      inner.appendChild(el('div', 'label', 'Changes'));
      inner.appendChild(diffBlock(item.diff));
    }
    if (item.output !== undefined) {
      inner.appendChild(el('div', 'label', item.isError ? 'Result (error)' : 'Result'));
      inner.appendChild(styledPre(item.output, item.ansi, item.isError ? 'err' : ''));
    }
    (item.images || []).forEach(function (image) { inner.appendChild(imageBlock(image)); });
    if (item.items && item.items.length) inner.appendChild(subagentBox(item.agent, item.items));
    box.appendChild(inner);
    if (has(itemText(item))) box.open = true;
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
    appendStyled(box, item.text, item.ansi);
    offTag(box, item);
  } else {
    box = el('div', 'marker title');
    box.appendChild(el('b', null, 'Title: '));
    appendText(box, item.title || '');
  }
  if (item.off) box.classList.add('off');
  box.classList.add('k-' + kindOf(item));
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

`
