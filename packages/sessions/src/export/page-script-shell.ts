/**
 * Part of the page's script (see page-script.ts): the page's shell (header, search bar, branch switch,
 * theme toggle, footer) and the token-usage chart, an inline SVG of at most 240 bars.
 */
export const SCRIPT_SHELL = String.raw`// ---- page shell ----
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

// The chart and the timeline (page-script-filters.ts) change together, as turns arrive.
function renderUsage() {
  renderUsageChart();
  renderTimeline();
}
function renderUsageChart() {
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

`
