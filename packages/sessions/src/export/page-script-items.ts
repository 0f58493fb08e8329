/**
 * Part of the page's script (see page-script.ts): the richer parts of an item — terminal styles, diffs,
 * images, commands, a subagent's items under its call — and each item's kind for the filters. Styles come
 * as tokens from a closed set (ansi.ts): each is checked here before it becomes a class or a colour, and an
 * image's src is set only when it is a base64 `data:` URI of PNG, JPEG, GIF or WebP (the policy allows no
 * other image source anyway).
 */
export const SCRIPT_ITEMS = String.raw`var KINDS = ['user', 'assistant', 'thinking', 'tool', 'system'];
function kindOf(item) {
  if (item.t === 'text' || item.t === 'image') return item.role;
  if (item.t === 'command') return item.name ? 'user' : 'system';
  if (item.t === 'thinking') return 'thinking';
  if (item.t === 'tool' || item.t === 'result') return 'tool';
  return 'system';
}
// Text with terminal styles: runs of [start, end, 'tokens'] over it.
function appendStyled(parent, text, runs) {
  text = String(text);
  if (!runs || !runs.length) return appendText(parent, text);
  var at = 0;
  for (var i = 0; i < runs.length; i++) {
    var r = runs[i], s = Math.max(at, r[0] | 0), e = Math.min(text.length, r[1] | 0);
    if (e <= s) continue;
    if (s > at) appendText(parent, text.slice(at, s));
    var span = el('span', 'a');
    String(r[2]).split(' ').forEach(function (t) {
      if (/^([bdius]|[fg]([0-9]|1[0-5]))$/.test(t)) span.classList.add('a-' + t);
      else if (/^F[0-9a-f]{6}$/.test(t)) span.style.color = '#' + t.slice(1);
      else if (/^G[0-9a-f]{6}$/.test(t)) span.style.backgroundColor = '#' + t.slice(1);
    });
    appendText(span, text.slice(s, e));
    parent.appendChild(span);
    at = e;
  }
  if (at < text.length) appendText(parent, text.slice(at));
  return parent;
}
function styledPre(text, runs, cls) { return appendStyled(el('pre', cls), text, runs); }
function diffBlock(diff) {
  var pre = el('pre', 'diff');
  String(diff).split('\n').forEach(function (line) {
    var c = line.charAt(0);
    var cls = c === '+' ? 'd-add' : c === '-' ? 'd-del' : c === '@' || c === '*' ? 'd-hdr' : 'd-ctx';
    appendText(pre.appendChild(el('span', cls)), line + '\n');
  });
  return pre;
}
var IMAGE_SRC = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+\/]+=*$/;
function imageBlock(image) {
  var box = el('div', 'img');
  var what = (image.media || 'image') + (image.bytes ? ', ' + NUM.format(image.bytes) + ' bytes' : '');
  if (image.src && IMAGE_SRC.test(image.src)) {
    var img = el('img');
    img.alt = 'Image (' + what + ')';
    img.decoding = 'async';
    img.src = image.src;
    box.appendChild(img);
  } else {
    box.classList.add('omitted');
    box.textContent = 'Image (' + what + ') not shown: ' + (image.omitted || 'not a PNG, JPEG, GIF or WebP image');
  }
  return box;
}
function commandBox(item) {
  var box = el('div', 'msg command');
  var who = el('div', 'who', item.name ? 'Command' : 'Command output');
  offTag(who, item);
  box.appendChild(who);
  if (item.name) {
    var code = el('code', 'cmd');
    appendText(code, item.name + (item.args ? ' ' + item.args : ''));
    box.appendChild(code);
  }
  if (item.out !== undefined && item.out !== '') box.appendChild(styledPre(item.out, item.ansi, item.isError ? 'err' : ''));
  return box;
}
function subagentBox(agent, items) {
  var box = el('div', 'sub');
  box.appendChild(el('div', 'sub-head', 'Subagent' + (agent ? ' ' + agent : '') + ' · ' + NUM.format(items.length) + ' items'));
  for (var i = 0; i < items.length; i++) box.appendChild(renderItem(items[i]));
  return box;
}
function itemText(it) {
  var parts = [it.text || '', it.name || '', it.args || '', it.out || '', it.input || '', it.diff || '', it.output || '', it.summary || '', it.title || ''];
  (it.items || []).forEach(function (sub) { parts.push(itemText(sub)); });
  return parts.join('\n');
}

`
