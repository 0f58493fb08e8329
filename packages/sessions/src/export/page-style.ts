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
.more{height:1px}
footer{margin-top:24px;color:var(--muted);font-size:.8rem}
@media (max-width:600px){body{font-size:14px}main{padding:0 8px 48px}article.turn{padding:8px}.sub{margin-left:4px}.turn-head .u{margin-left:0;width:100%}}
@media print{.bar{display:none}details{border:none}body.hide-off .off{display:none}}
`
