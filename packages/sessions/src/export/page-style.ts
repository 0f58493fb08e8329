/** The page's stylesheet (inline, hashed into the Content-Security-Policy). Light and dark, phone to wide screen. */
export const PAGE_STYLE = String.raw`
:root{color-scheme:light;--bg:#f7f7f5;--fg:#1d1f21;--muted:#5f6368;--card:#fff;--line:#e2e2de;--user:#e8f0fe;--user-line:#aac4f5;--asst:#fff;--tool:#f3f1ea;--err:#b3261e;--err-bg:#fdecea;--ok:#1e7b34;--mark:#ffe066;--accent:#3559c7;--sub:#f1ecfb;--sub-line:#c9b6f2;--code:#f5f5f2;--bar-in:#7aa2f7;--bar-out:#e0a458;--bar-cache:#b8c9f5}
:root[data-theme=dark]{color-scheme:dark;--bg:#15171a;--fg:#e3e3e3;--muted:#9aa0a6;--card:#1d2024;--line:#30343a;--user:#1c2a44;--user-line:#34518a;--asst:#1d2024;--tool:#23262b;--err:#f28b82;--err-bg:#3a1f1d;--ok:#81c995;--mark:#8a6d00;--accent:#8ab4f8;--sub:#261f36;--sub-line:#5b4a85;--code:#181a1d;--bar-in:#5b7fd6;--bar-out:#c98b3a;--bar-cache:#3d4f7d}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:980px;margin:0 auto;padding:0 12px 64px}
header.top{padding:20px 0 8px}
h1{font-size:1.35rem;margin:0 0 6px;overflow-wrap:anywhere}
.facts{display:flex;flex-wrap:wrap;gap:4px 14px;color:var(--muted);font-size:.85rem}
.facts span{overflow-wrap:anywhere}
.facts b{font-weight:600;color:var(--fg)}
.bar{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;gap:6px;align-items:center;padding:8px 0;background:var(--bg);border-bottom:1px solid var(--line)}
.bar input[type=search]{flex:1 1 180px;min-width:0;padding:6px 10px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg);font:inherit}
.bar button,.bar select{padding:6px 10px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg);font:inherit;cursor:pointer}
.bar .count{color:var(--muted);font-size:.85rem;min-width:4.5em;text-align:center}
.status{font-size:.8rem;color:var(--muted)}
.status.live::before{content:"";display:inline-block;width:8px;height:8px;border-radius:50%;background:var(--ok);margin-right:5px}
section.usage{margin:14px 0;padding:12px;background:var(--card);border:1px solid var(--line);border-radius:10px}
section.usage h2{font-size:1rem;margin:0 0 8px}
.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:6px 12px;margin-bottom:8px}
.totals div{font-size:.8rem;color:var(--muted)}
.totals b{display:block;font-size:1.05rem;color:var(--fg);font-variant-numeric:tabular-nums}
svg.chart{width:100%;height:120px;display:block}
svg.chart .in{fill:var(--bar-in)}svg.chart .out{fill:var(--bar-out)}svg.chart .axis{stroke:var(--line)}
svg.chart text{fill:var(--muted);font-size:10px}
.legend{display:flex;gap:12px;font-size:.75rem;color:var(--muted)}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.legend .in{background:var(--bar-in)}.legend .out{background:var(--bar-out)}
article.turn{margin:14px 0;padding:10px 12px;background:var(--card);border:1px solid var(--line);border-radius:10px}
article.turn.system{background:transparent;border-style:dashed}
.turn-head{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline;font-size:.8rem;color:var(--muted);margin-bottom:6px}
.turn-head .n{font-weight:700;color:var(--fg)}
.turn-head .u{margin-left:auto;font-variant-numeric:tabular-nums}
.msg{margin:8px 0;padding:8px 10px;border-radius:8px;border:1px solid var(--line)}
.msg.user{background:var(--user);border-color:var(--user-line)}
.msg.assistant{background:var(--asst)}
.who{font-size:.75rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin-bottom:2px}
.body{white-space:pre-wrap;overflow-wrap:anywhere}
.body a,.io a{color:var(--accent)}
details{margin:6px 0;border:1px solid var(--line);border-radius:8px;background:var(--tool)}
details>summary{cursor:pointer;padding:6px 10px;list-style-position:inside;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
details[open]>summary{border-bottom:1px solid var(--line)}
details .inner{padding:6px 10px}
summary .tn{font-weight:600;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
summary .ts{color:var(--muted);margin-left:8px;font-size:.85rem}
summary .st{float:right;font-size:.75rem;padding:0 6px;border-radius:6px}
summary .st.ok{color:var(--ok)}summary .st.err{color:var(--err);background:var(--err-bg)}summary .st.wait{color:var(--muted)}
.io .label{font-size:.72rem;font-weight:700;text-transform:uppercase;color:var(--muted);margin:4px 0 2px}
pre{margin:0;padding:8px;background:var(--code);border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:32em;overflow:auto;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre.err{border-color:var(--err);background:var(--err-bg)}
details.thinking{background:transparent;border-style:dashed}
details.thinking .body{color:var(--muted);font-style:italic}
.marker{margin:8px 0;padding:6px 10px;border-left:4px solid var(--accent);background:var(--tool);border-radius:4px;font-size:.85rem;overflow-wrap:anywhere;white-space:pre-wrap}
.marker.error{border-color:var(--err)}.marker.recovered{border-color:var(--bar-out)}
details.compaction{border-left:4px solid var(--bar-out)}
.sub{margin:8px 0 8px 10px;padding:6px 10px;border-left:3px solid var(--sub-line);background:var(--sub);border-radius:0 8px 8px 0}
.sub-head{font-size:.75rem;font-weight:700;color:var(--muted)}
.off{opacity:.72}
.off-tag{font-size:.7rem;font-weight:700;color:var(--bar-out);margin-left:6px}
body.hide-off .off{display:none}
mark{background:var(--mark);color:inherit;border-radius:2px}
mark.cur{outline:2px solid var(--accent)}
.pending{margin:12px 0;padding:8px 12px;border:1px dashed var(--line);border-radius:8px;color:var(--muted);font-style:italic}
.a-b{font-weight:700}.a-d{opacity:.7}.a-i{font-style:italic}.a-u{text-decoration:underline}.a-s{text-decoration:line-through}
.a-f0{color:#555}.a-f1{color:#c4302b}.a-f2{color:#2e8b3a}.a-f3{color:#a67c00}.a-f4{color:#2f5fd0}.a-f5{color:#a23fb0}.a-f6{color:#14879a}.a-f7{color:#8a8a8a}.a-f8{color:#6e6e6e}.a-f9{color:#e5534b}.a-f10{color:#3fae4f}.a-f11{color:#c49b00}.a-f12{color:#4c7ff0}.a-f13{color:#c45bd3}.a-f14{color:#1aa5b8}.a-f15{color:#9e9e9e}
.a-g0{background:#3333}.a-g1{background:#c4302b33}.a-g2{background:#2e8b3a33}.a-g3{background:#a67c0033}.a-g4{background:#2f5fd033}.a-g5{background:#a23fb033}.a-g6{background:#14879a33}.a-g7{background:#8a8a8a33}.a-g8{background:#6e6e6e33}.a-g9{background:#e5534b33}.a-g10{background:#3fae4f33}.a-g11{background:#c49b0033}.a-g12{background:#4c7ff033}.a-g13{background:#c45bd333}.a-g14{background:#1aa5b833}.a-g15{background:#9e9e9e33}
pre.diff .d-add{background:#2e8b3a2e}pre.diff .d-del{background:#c4302b2e}pre.diff .d-hdr{color:var(--muted);font-weight:700}
.img{margin:6px 0}.img img{display:block;max-width:100%;max-height:480px;border:1px solid var(--line);border-radius:6px;background:var(--card)}
.img.omitted{font-size:.8rem;color:var(--muted);font-style:italic}
.msg.command{background:var(--tool)}code.cmd{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}.msg.command pre{margin-top:6px}
summary .sub-tag{color:var(--sub-line);border:1px solid var(--sub-line)}
.filters{display:flex;flex-wrap:wrap;gap:2px 8px;font-size:.8rem;color:var(--muted)}.filters label{cursor:pointer;white-space:nowrap}.filters input{margin:0 3px 0 0;vertical-align:-2px}
section.timeline{margin:14px 0;padding:12px;background:var(--card);border:1px solid var(--line);border-radius:10px}
section.timeline h2{font-size:1rem;margin:0 0 8px}
svg.tl{width:100%;height:80px;display:block;cursor:pointer}
.k-user{--k:var(--user-line)}.k-assistant{--k:var(--bar-in)}.k-thinking{--k:var(--sub-line)}.k-tool{--k:var(--bar-out)}.k-system{--k:var(--muted)}
svg.tl rect{fill:var(--k)}svg.tl rect.off{opacity:.45}.legend i[class^=k-]{background:var(--k)}
body.hide-k-user .turns .k-user,body.hide-k-assistant .turns .k-assistant,body.hide-k-thinking .turns .k-thinking,body.hide-k-tool .turns .k-tool,body.hide-k-system .turns .k-system,
body.hide-k-user svg.tl .k-user,body.hide-k-assistant svg.tl .k-assistant,body.hide-k-thinking svg.tl .k-thinking,body.hide-k-tool svg.tl .k-tool,body.hide-k-system svg.tl .k-system{display:none}
.more{height:1px}
footer{margin-top:24px;color:var(--muted);font-size:.8rem}
@media (max-width:600px){body{font-size:14px}main{padding:0 8px 48px}article.turn{padding:8px}.sub{margin-left:4px}.turn-head .u{margin-left:0;width:100%}}
@media print{.bar{display:none}details{border:none}body.hide-off .off{display:none}}
`
