// Draws the tables of a git speed report from the JSON it embeds, then
// marks <html data-rendered="ok"> (or "error", with the reason shown).
(function () {
  "use strict";
  var root = document.documentElement;

  // load inflates the gzip+base64 JSON document embedded under id.
  async function load(id) {
    var node = document.getElementById(id);
    if (!node) throw new Error("the page embeds no " + id);
    var b64 = JSON.parse(node.textContent);
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  // el makes an element; attrs set attributes ("class", "data-…", …),
  // children are nodes or text (never parsed as HTML).
  function el(tag, attrs) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function num(n) { return Number(n).toLocaleString("en-US"); }

  // table draws rows under a caption; columns are [label, numeric].
  // Clicking a header sorts by it.
  function table(id, caption, note, columns, rows) {
    var head = el("tr", null);
    columns.forEach(function (c, i) {
      var th = el("th", c[1] ? { "class": "num" } : null, c[0]);
      th.addEventListener("click", function () { sortBy(tbody, i, c[1], th); });
      head.appendChild(th);
    });
    var tbody = el("tbody", null);
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) { frag.appendChild(r); });
    tbody.appendChild(frag);
    return el("table", { id: id }, el("caption", null, caption, note ? el("small", null, note) : null), el("thead", null, head), tbody);
  }

  function sortBy(tbody, col, numeric, th) {
    var down = th.dataset.sort !== "down";
    th.parentNode.querySelectorAll("th").forEach(function (h) { delete h.dataset.sort; });
    th.dataset.sort = down ? "down" : "up";
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.v || a.cells[col].textContent, y = b.cells[col].dataset.v || b.cells[col].textContent;
      var d = numeric ? Number(x) - Number(y) : (x < y ? -1 : x > y ? 1 : 0);
      return down ? -d : d;
    });
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) { frag.appendChild(r); });
    tbody.appendChild(frag);
  }

  function td(cls, value, sortValue) {
    var e = el("td", { "class": cls }, value);
    if (sortValue !== undefined) e.dataset.v = String(sortValue);
    return e;
  }

  function tier(t) { return el("span", { "class": "tier tier-" + t }, t); }

  function card() {
    var d = el("div", null);
    for (var i = 0; i < arguments.length; i++) if (arguments[i]) d.appendChild(arguments[i]);
    document.getElementById("tables").appendChild(d);
    return d;
  }

  async function scope() {
    if (document.getElementById("failure-json")) {
      var f = await load("failure-json");
      document.getElementById("failure").dataset.error = f.error;
      return;
    }
    var budget = await load("budget-json"), manifest = await load("manifest-json");
    var dims = budget.dimensions, dimRows = [];
    [["code_context", dims.code_context], ["task_context", dims.task_context], ["spec_context", dims.spec_context]].forEach(function (d) {
      dimRows.push(el("tr", { "class": "dimension", "data-dimension": d[0] },
        td("name", d[0]), td("num", num(d[1].limit), d[1].limit), td("num", num(d[1].used), d[1].used)));
    });
    dimRows.push(el("tr", { "class": "dimension", "data-dimension": "reserve" },
      td("name", "reserve"), td("num", num(dims.reserve.limit), dims.reserve.limit), td("num", "", 0)));
    card(table("dimensions", "Dimensions", num(budget.total) + " tokens in all, " + num(budget.remaining_tokens) + " left",
      [["dimension"], ["limit", true], ["used", true]], dimRows));

    var delivered = 0, dropped = 0;
    var fileRows = manifest.files.map(function (f) {
      if (f.tier === "dropped") dropped++; else delivered++;
      var signals = el("td", { "class": "signals" });
      (f.signals || []).forEach(function (s) { signals.appendChild(el("span", { "class": "chip" }, s)); });
      var tr = el("tr", { "class": "file", "data-path": f.path, "data-tier": f.tier, "data-tokens": String(f.tokens), "data-distance": String(f.distance) },
        td("path", f.path), td("num distance", String(f.distance), f.distance), el("td", { "class": "tier-cell" }, tier(f.tier)),
        td("num tokens", num(f.tokens), f.tokens), td("num relevance", String(f.relevance), f.relevance), signals, td("reason", f.reason));
      tr.hidden = f.tier === "dropped";
      return tr;
    });
    var filter = el("input", { type: "search", placeholder: "filter by path, signal or reason", id: "file-filter" });
    var showDropped = el("input", { type: "checkbox", id: "show-dropped" });
    var files = table("files", "Files", num(delivered) + " delivered, " + num(dropped) + " dropped" +
      (manifest.unlisted_beyond_max_hops ? ", " + num(manifest.unlisted_beyond_max_hops) + " beyond max_hops not listed" : ""),
      [["path"], ["distance", true], ["tier"], ["tokens", true], ["relevance", true], ["signals"], ["why it is there"]], fileRows);
    function refilter() {
      var q = filter.value.toLowerCase();
      fileRows.forEach(function (tr) {
        var hide = (!showDropped.checked && tr.dataset.tier === "dropped") || (q && tr.textContent.toLowerCase().indexOf(q) < 0);
        tr.hidden = !!hide;
      });
    }
    filter.addEventListener("input", refilter);
    showDropped.addEventListener("change", refilter);
    card(el("div", { "class": "controls" }, filter, el("label", null, showDropped, " show dropped candidates")), files);

    var cutRows = budget.cuts.map(function (c) {
      return el("tr", { "class": "cut", "data-path": c.path, "data-from": c.from, "data-to": c.to, "data-saved": String(c.tokens_saved) },
        td("path", c.path), el("td", { "class": "tiers" }, tier(c.from), " → ", tier(c.to)),
        td("num saved", num(c.tokens_saved) + (c.estimated ? " (estimated)" : ""), c.tokens_saved), td("dimension", c.dimension), td("reason", c.reason));
    });
    var saved = budget.cuts.reduce(function (s, c) { return s + c.tokens_saved; }, 0);
    card(table("cuts", "Cuts", num(budget.cuts.length) + " cuts saved " + num(saved) + " tokens",
      [["path"], ["from → to"], ["tokens saved", true], ["dimension"], ["reason"]], cutRows));

    var rules = Object.keys(budget.redactions.by_rule || {});
    if (rules.length) {
      card(table("redactions", "Redactions", num(budget.redactions.count) + " secrets shown as ***REDACTED(rule)***",
        [["rule"], ["count", true]], rules.map(function (r) {
          return el("tr", { "class": "redaction" }, td("name", r), td("num", num(budget.redactions.by_rule[r]), budget.redactions.by_rule[r]));
        })));
    }
  }

  async function pack() {
    var p = await load("pack-json");
    var rows = p.items.map(function (it, i) {
      var ev = el("ul", { "class": "evidence" });
      (it.evidence || []).forEach(function (e) { ev.appendChild(el("li", null, e)); });
      var syms = el("td", { "class": "symbols" });
      (it.symbols || []).forEach(function (s) { syms.appendChild(el("span", { "class": "chip" }, s)); });
      var snippet = el("td", { "class": "snippet" }, el("details", null, el("summary", null, "lines " + it.line_range + (it.truncated ? " (shortened)" : "")),
        el("pre", null, it.snippet)));
      return el("tr", { "class": "item", "data-path": it.path, "data-rank": String(i + 1), "data-score": String(it.score) },
        td("num rank", String(i + 1), i + 1), td("path", it.path), td("num score", String(it.score), it.score), td("language", it.language),
        td("reason", it.reason), el("td", null, ev), syms, snippet);
    });
    card(table("items", "Ranking", num(p.items.length) + " files of " + num(p.candidates) + " candidates, " + num(p.tokens) + " tokens",
      [["rank", true], ["path"], ["score", true], ["language"], ["reason"], ["evidence"], ["symbols"], ["snippet"]], rows));
    var status = (p.git && p.git.status) || [];
    if (status.length) {
      card(table("git-status", "Git status", "as the pack saw it", [["code"], ["path"]], status.map(function (s) {
        return el("tr", { "class": "status-row" }, td("code", s.code), td("path", s.path));
      })));
    }
  }

  function fail(e) {
    root.dataset.rendered = "error";
    document.getElementById("status").textContent = "The page could not draw its tables: " + (e && e.message ? e.message : e);
    console.error("git speed report: " + (e && e.stack ? e.stack : e));
  }

  try {
    (document.body.dataset.kind === "pack" ? pack() : scope()).then(function () {
      void document.body.offsetHeight; // lay the tables out before the mark
      root.dataset.renderMs = String(Math.round(performance.now()));
      root.dataset.rendered = "ok";
    }, fail);
  } catch (e) {
    fail(e);
  }
})();
