//! The stylesheet, the one small script and the suit icons, compiled into the binary (no CDN, no
//! build step).

use actix_web::HttpResponse;

const CSS: &str = r#"
:root{--ink:#1b1b1b;--paper:#fbfaf6;--line:#8a8577;--accent:#0b4f8a;--warn:#8a1c12;--ok:#1d5e2a;--soft:#efece3}
*{box-sizing:border-box}
html{font-size:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--paper);line-height:1.45}
a{color:var(--accent)}
a:focus,button:focus,input:focus,select:focus,summary:focus{outline:3px solid #e3a200;outline-offset:2px}
.skip{position:absolute;left:-9999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;padding:.5rem;z-index:9}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.5rem 1rem;background:#1f2a36;color:#fff}
header.top a{color:#fff}
header.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
header.top form{display:inline;margin:0}
header.top button{background:none;border:1px solid #fff;color:#fff;border-radius:4px;padding:.1rem .5rem;font:inherit}
.brand{font-weight:700;text-decoration:none}
main{max-width:72rem;margin:0 auto;padding:.75rem}
h1{font-size:1.4rem;margin:.25rem 0 .75rem}
h2{font-size:1.15rem;margin:1rem 0 .5rem;border-bottom:1px solid var(--line)}
h3{font-size:1rem;margin:.5rem 0}
.status{padding:.5rem .75rem;border-radius:6px;background:var(--soft);border-left:6px solid var(--accent);margin:.5rem 0}
.status.mine{border-left-color:var(--ok)}
.problem{padding:.5rem .75rem;border-radius:6px;background:#fbe9e7;border-left:6px solid var(--warn);color:#5a0f08;margin:.5rem 0}
.notice{padding:.5rem .75rem;border-radius:6px;background:#e8f0fb;border-left:6px solid var(--accent);margin:.5rem 0}
.grid{display:grid;gap:1rem;grid-template-columns:1fr}
@media (min-width:60rem){.grid{grid-template-columns:3fr 2fr}}
.districts{display:grid;gap:.5rem;grid-template-columns:repeat(auto-fit,minmax(12.5rem,1fr))}
.district{border:1px solid var(--line);border-radius:8px;background:#fff;padding:.4rem}
.district h3{display:flex;justify-content:space-between;gap:.25rem;flex-wrap:wrap}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:.3rem}
.col{min-height:2rem;border-top:3px solid var(--line);padding-top:.2rem}
.col.me{border-top-color:var(--ok)}
.col h4{font-size:.8rem;margin:0 0 .2rem;font-weight:600;overflow-wrap:anywhere}
.plain{list-style:none;margin:0;padding:0}
.history>li>ul{margin:.1rem 0 .4rem;padding-left:1.2rem}
.card{display:inline-flex;flex-wrap:wrap;align-items:center;gap:.15rem;border:1px solid var(--line);border-radius:5px;padding:.05rem .3rem;background:#fff;font-size:.9rem;margin:.1rem 0}
.card .code{font-weight:700;font-family:ui-monospace,Menlo,Consolas,monospace}
.card .name{font-size:.8rem;color:#444}
.card.deed{border-style:dashed;background:#fffbe8}
.suit{display:inline-flex;align-items:center;gap:.05rem;font-weight:600;font-family:ui-monospace,Menlo,Consolas,monospace}
.suit svg{width:1em;height:1em}
.s-M{color:#3b3b8f}.s-S{color:#8a5a00}.s-V{color:#0d5f73}.s-L{color:#2d6a1f}.s-Y{color:#7a2a16}.s-K{color:#5a3d6e}
.tokens{display:inline-flex;flex-wrap:wrap;gap:.4rem}
table{border-collapse:collapse;width:100%}
.scroll{overflow-x:auto}
th,td{border-bottom:1px solid #d8d4c8;padding:.2rem .3rem;text-align:left;vertical-align:top}
form.action{border:1px solid var(--line);border-radius:8px;padding:.5rem;margin:.5rem 0;background:#fff}
form.quick{display:inline-block;margin:.15rem .25rem .15rem 0}
fieldset{border:1px solid #d8d4c8;border-radius:6px;margin:.3rem 0;padding:.3rem .5rem}
legend{font-weight:600}
label{display:inline-block;margin:.15rem .5rem .15rem 0}
input[type=number]{width:3.5rem}
input,select,button{font:inherit;padding:.3rem .4rem;min-height:2.25rem}
input[type=email],input[type=text]{width:100%;max-width:24rem}
button{background:var(--accent);color:#fff;border:0;border-radius:6px;padding:.4rem .8rem;cursor:pointer}
button.secondary{background:#4a5562}
.field-error{color:var(--warn);font-weight:600}
.history li{margin:.15rem 0}
.muted{color:#555}
.paytotal{margin-left:.5rem;color:#333}
footer{padding:1rem;text-align:center;color:#555;font-size:.85rem}
"#;

const JS: &str = r#"
// Live payment totals next to each payment fieldset; the forms work the same without it.
document.querySelectorAll('fieldset[data-payment]').forEach(function (fs) {
  var out = document.createElement('output');
  out.className = 'paytotal';
  out.setAttribute('aria-live', 'polite');
  fs.appendChild(out);
  function update() {
    var n = 0;
    fs.querySelectorAll('input[type=number]').forEach(function (i) { n += parseInt(i.value || '0', 10) || 0; });
    out.textContent = '= ' + n;
  }
  fs.addEventListener('input', update);
  update();
});
"#;

/// `GET /static/herald.css`.
pub async fn stylesheet() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(CSS)
}

/// `GET /static/herald.js`.
pub async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(JS)
}
