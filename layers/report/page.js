// Draws the tables of a git speed report from the JSON it embeds, then
// marks <html data-rendered="ok"> (or "error", with the reason shown).
(function () {
  "use strict";
  var root = document.documentElement;

  // load returns the JSON document embedded under id: base64 of gzip,
  // inflated here, synchronously, so that the tables are drawn before the
  // page's load event (what a headless browser's --dump-dom waits for).
  var inflateMs = 0;
  function load(id) {
    var t = performance.now();
    try { return loadNow(id); } finally { inflateMs += performance.now() - t; }
  }
  function loadNow(id) {
    var node = document.getElementById(id);
    if (!node) throw new Error("the page embeds no " + id);
    var bin = atob(JSON.parse(node.textContent)), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return JSON.parse(new TextDecoder("utf-8").decode(gunzip(bytes)));
  }

  // Inflate (RFC 1951) of one gzip member (RFC 1952): each Huffman code
  // becomes a table indexed by the next bits of the stream (as many as its
  // longest code), each entry the symbol and its code's length.
  var LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  var LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  var DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
  var DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
  var ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

  function codes(lengths) {
    var max = 0, count = new Uint16Array(16), next = new Uint16Array(16), i;
    for (i = 0; i < lengths.length; i++) {
      count[lengths[i]]++;
      if (lengths[i] > max) max = lengths[i];
    }
    count[0] = 0;
    for (var l = 1, code = 0; l < 16; l++) {
      code = (code + count[l - 1]) << 1;
      next[l] = code;
    }
    var size = 1 << max, table = new Int32Array(size).fill(-1);
    for (i = 0; i < lengths.length; i++) {
      var len = lengths[i];
      if (!len) continue;
      var c = next[len]++, r = 0;
      for (var b = 0; b < len; b++, c >>= 1) r = (r << 1) | (c & 1);
      for (var j = r; j < size; j += 1 << len) table[j] = (i << 4) | len;
    }
    return { table: table, max: max, mask: size - 1 };
  }

  function gunzip(src) {
    if (src.length < 18 || src[0] !== 0x1f || src[1] !== 0x8b || src[2] !== 8) throw new Error("embedded data is not gzip");
    var flg = src[3], pos = 10;
    if (flg & 4) pos += 2 + (src[pos] | (src[pos + 1] << 8));
    if (flg & 8) while (src[pos++]) {}
    if (flg & 16) while (src[pos++]) {}
    if (flg & 2) pos += 2;
    var n = src.length, size = (src[n - 4] | (src[n - 3] << 8) | (src[n - 2] << 16) | (src[n - 1] << 24)) >>> 0;
    var out = new Uint8Array(size), op = 0, buf = 0, cnt = 0;
    function bits(k) {
      while (cnt < k) {
        if (pos >= n) throw new Error("embedded data ends early");
        buf |= src[pos++] << cnt;
        cnt += 8;
      }
      var v = buf & ((1 << k) - 1);
      buf >>>= k;
      cnt -= k;
      return v;
    }
    function decode(h) {
      while (cnt < h.max) {
        buf |= (pos < n ? src[pos] : 0) << cnt;
        pos++;
        cnt += 8;
      }
      var e = h.table[buf & h.mask];
      if (e < 0) throw new Error("embedded data has a bad Huffman code");
      buf >>>= e & 15;
      cnt -= e & 15;
      return e >> 4;
    }
    var fixedLit = null, fixedDist = null, last;
    do {
      last = bits(1);
      var type = bits(2), lit, dist;
      if (type === 0) {
        pos -= cnt >> 3; // whole bytes read ahead go back; the partial one is padding
        buf = 0;
        cnt = 0;
        var len = src[pos] | (src[pos + 1] << 8);
        pos += 4;
        if (pos + len > n || op + len > size) throw new Error("embedded data has a bad stored block");
        out.set(src.subarray(pos, pos + len), op);
        op += len;
        pos += len;
        continue;
      } else if (type === 1) {
        if (!fixedLit) {
          var l = new Uint8Array(288);
          l.fill(8, 0, 144); l.fill(9, 144, 256); l.fill(7, 256, 280); l.fill(8, 280, 288);
          fixedLit = codes(l);
          fixedDist = codes(new Uint8Array(30).fill(5));
        }
        lit = fixedLit;
        dist = fixedDist;
      } else if (type === 2) {
        var nlen = bits(5) + 257, ndist = bits(5) + 1, ncode = bits(4) + 4;
        var cl = new Uint8Array(19);
        for (var i = 0; i < ncode; i++) cl[ORDER[i]] = bits(3);
        var clc = codes(cl), lengths = new Uint8Array(nlen + ndist);
        for (i = 0; i < nlen + ndist;) {
          var sym = decode(clc);
          if (sym < 16) {
            lengths[i++] = sym;
            continue;
          }
          var rep, val = 0;
          if (sym === 16) {
            if (i === 0) throw new Error("embedded data repeats no length");
            val = lengths[i - 1];
            rep = 3 + bits(2);
          } else if (sym === 17) {
            rep = 3 + bits(3);
          } else {
            rep = 11 + bits(7);
          }
          if (i + rep > nlen + ndist) throw new Error("embedded data has too many lengths");
          while (rep--) lengths[i++] = val;
        }
        lit = codes(lengths.subarray(0, nlen));
        dist = codes(lengths.subarray(nlen));
      } else {
        throw new Error("embedded data has a bad block type");
      }
      for (;;) {
        var s = decode(lit);
        if (s < 256) {
          if (op >= size) throw new Error("embedded data is longer than it says");
          out[op++] = s;
          continue;
        }
        if (s === 256) break;
        s -= 257;
        if (s >= 29) throw new Error("embedded data has a bad length code");
        var length = LBASE[s] + bits(LEXT[s]);
        var ds = decode(dist);
        if (ds >= 30) throw new Error("embedded data has a bad distance code");
        var d = DBASE[ds] + bits(DEXT[ds]);
        if (d > op || op + length > size) throw new Error("embedded data has a bad distance");
        if (d >= length) {
          out.copyWithin(op, op - d, op - d + length);
          op += length;
        } else {
          for (var k = 0; k < length; k++, op++) out[op] = out[op - d];
        }
      }
    } while (!last);
    if (op !== size) throw new Error("embedded data is shorter than it says");
    return out;
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

  // PAGE is how many rows a table draws at first and per "show more": a
  // kubernetes scope has thousands of cuts, which a person filters, not
  // scrolls, and which would take seconds to lay out.
  var PAGE = 200;

  // table draws items as rows (rowOf, each made once), a page at a time,
  // under a caption and a filter box. columns are [label, numeric, key]:
  // clicking a header with a key sorts by it. opts.search gives an item's
  // text for the filter box, opts.keep whether it is shown at all.
  function table(id, caption, summary, columns, items, rowOf, opts) {
    opts = opts || {};
    var order = items.slice(), shown = PAGE, sortCol = -1, down = false;
    var rows = new Map(), texts = new Map();
    var tbody = el("tbody", null), note = el("small", { "class": "shown" });
    var more = el("button", { type: "button", "class": "more" });
    var head = el("tr", null);
    columns.forEach(function (c, i) {
      var th = el("th", c[1] ? { "class": "num" } : null, c[0]);
      if (c[2]) {
        th.addEventListener("click", function () {
          down = sortCol === i ? !down : !!c[1];
          sortCol = i;
          order.sort(function (a, b) {
            var x = c[2](a), y = c[2](b), d = x < y ? -1 : x > y ? 1 : 0;
            return down ? -d : d;
          });
          draw();
        });
      }
      head.appendChild(th);
    });
    var search = null;
    if (opts.search) {
      search = el("input", { type: "search", placeholder: "filter", "class": "filter", id: id + "-filter" });
      search.addEventListener("input", function () { shown = PAGE; draw(); });
    }
    function visible(it) {
      if (opts.keep && !opts.keep(it)) return false;
      var q = search ? search.value.toLowerCase() : "";
      if (!q) return true;
      if (!texts.has(it)) texts.set(it, opts.search(it).toLowerCase());
      return texts.get(it).indexOf(q) >= 0;
    }
    function draw() {
      var list = order.filter(visible), frag = document.createDocumentFragment();
      for (var i = 0; i < list.length && i < shown; i++) {
        var it = list[i];
        if (!rows.has(it)) rows.set(it, rowOf(it));
        frag.appendChild(rows.get(it));
      }
      tbody.textContent = "";
      tbody.appendChild(frag);
      note.textContent = list.length > shown ? "showing " + num(shown) + " of " + num(list.length) : "";
      more.hidden = list.length <= shown;
      more.textContent = "show " + num(Math.min(PAGE, list.length - shown)) + " more";
    }
    more.addEventListener("click", function () { shown += PAGE; draw(); });
    draw();
    var t = el("table", { id: id }, el("caption", null, caption, el("small", null, summary), note), el("thead", null, head), tbody);
    return { node: el("div", { "class": "table" }, search ? el("div", { "class": "controls" }, search, opts.controls || null) : null, t, more),
      redraw: function () { shown = PAGE; draw(); } };
  }

  function td(cls, value) { return el("td", { "class": cls }, value); }

  function tier(t) { return el("span", { "class": "tier tier-" + t }, t); }

  function card() {
    var d = el("div", null);
    for (var i = 0; i < arguments.length; i++) if (arguments[i]) d.appendChild(arguments[i]);
    document.getElementById("tables").appendChild(d);
    return d;
  }

  function scope() {
    if (document.getElementById("failure-json")) {
      var f = load("failure-json");
      document.getElementById("failure").dataset.error = f.error;
      return;
    }
    var budget = load("budget-json"), manifest = load("manifest-json");
    var dims = budget.dimensions;
    var dimList = [["code_context", dims.code_context.limit, dims.code_context.used], ["task_context", dims.task_context.limit, dims.task_context.used],
      ["spec_context", dims.spec_context.limit, dims.spec_context.used], ["reserve", dims.reserve.limit, null]];
    card(table("dimensions", "Dimensions", num(budget.total) + " tokens in all, " + num(budget.remaining_tokens) + " left",
      [["dimension"], ["limit", true], ["used", true]], dimList, function (d) {
        return el("tr", { "class": "dimension", "data-dimension": d[0] }, td("name", d[0]), td("num limit", num(d[1])), td("num used", d[2] === null ? "" : num(d[2])));
      }).node);

    var delivered = 0, dropped = 0;
    manifest.files.forEach(function (f) { if (f.tier === "dropped") dropped++; else delivered++; });
    var showDropped = el("input", { type: "checkbox", id: "show-dropped" });
    var files = table("files", "Files", num(delivered) + " delivered, " + num(dropped) + " dropped" +
      (manifest.unlisted_beyond_max_hops ? ", " + num(manifest.unlisted_beyond_max_hops) + " beyond max_hops not listed" : ""),
      [["path", false, function (f) { return f.path; }], ["distance", true, function (f) { return f.distance; }], ["tier", false, function (f) { return f.tier; }],
        ["tokens", true, function (f) { return f.tokens; }], ["relevance", true, function (f) { return f.relevance; }], ["signals"], ["why it is there"]],
      manifest.files, function (f) {
        var signals = el("td", { "class": "signals" });
        (f.signals || []).forEach(function (s) { signals.appendChild(el("span", { "class": "chip" }, s)); });
        return el("tr", { "class": "file", "data-path": f.path, "data-tier": f.tier, "data-tokens": String(f.tokens), "data-distance": String(f.distance) },
          td("path", f.path), td("num distance", String(f.distance)), el("td", { "class": "tier-cell" }, tier(f.tier)),
          td("num tokens", num(f.tokens)), td("num relevance", String(f.relevance)), signals, td("reason", f.reason));
      }, {
        search: function (f) { return f.path + " " + (f.signals || []).join(" ") + " " + f.reason; },
        keep: function (f) { return showDropped.checked || f.tier !== "dropped"; },
        controls: el("label", null, showDropped, " show dropped candidates")
      });
    showDropped.addEventListener("change", files.redraw);
    card(files.node);

    var saved = budget.cuts.reduce(function (s, c) { return s + c.tokens_saved; }, 0);
    card(table("cuts", "Cuts", num(budget.cuts.length) + " cuts saved " + num(saved) + " tokens",
      [["path", false, function (c) { return c.path; }], ["from → to", false, function (c) { return c.from + c.to; }],
        ["tokens saved", true, function (c) { return c.tokens_saved; }], ["dimension", false, function (c) { return c.dimension; }], ["reason"]],
      budget.cuts, function (c) {
        return el("tr", { "class": "cut", "data-path": c.path, "data-from": c.from, "data-to": c.to, "data-saved": String(c.tokens_saved) },
          td("path", c.path), el("td", { "class": "tiers" }, tier(c.from), " → ", tier(c.to)),
          td("num saved", num(c.tokens_saved) + (c.estimated ? " (estimated)" : "")), td("dimension", c.dimension), td("reason", c.reason));
      }, { search: function (c) { return c.path + " " + c.from + " " + c.to + " " + c.dimension + " " + c.reason; } }).node);

    var rules = Object.keys(budget.redactions.by_rule || {});
    if (rules.length) {
      card(table("redactions", "Redactions", num(budget.redactions.count) + " secrets shown as ***REDACTED(rule)***",
        [["rule"], ["count", true]], rules, function (r) {
          return el("tr", { "class": "redaction" }, td("name", r), td("num", num(budget.redactions.by_rule[r])));
        }).node);
    }
  }

  function pack() {
    var p = load("pack-json");
    p.items.forEach(function (it, i) { it.rank = i + 1; });
    card(table("items", "Ranking", num(p.items.length) + " files of " + num(p.candidates) + " candidates, " + num(p.tokens) + " tokens",
      [["rank", true, function (it) { return it.rank; }], ["path", false, function (it) { return it.path; }], ["score", true, function (it) { return it.score; }],
        ["language"], ["reason"], ["evidence"], ["symbols"], ["snippet"]],
      p.items, function (it) {
        var ev = el("ul", { "class": "evidence" });
        (it.evidence || []).forEach(function (e) { ev.appendChild(el("li", null, e)); });
        var syms = el("td", { "class": "symbols" });
        (it.symbols || []).forEach(function (s) { syms.appendChild(el("span", { "class": "chip" }, s)); });
        var snippet = el("td", { "class": "snippet" }, el("details", null,
          el("summary", null, "lines " + it.line_range + (it.truncated ? " (shortened)" : "")), el("pre", null, it.snippet)));
        return el("tr", { "class": "item", "data-path": it.path, "data-rank": String(it.rank), "data-score": String(it.score) },
          td("num rank", String(it.rank)), td("path", it.path), td("num score", String(it.score)), td("language", it.language),
          td("reason", it.reason), el("td", { "class": "evidence-cell" }, ev), syms, snippet);
      }).node);
    var status = (p.git && p.git.status) || [];
    if (status.length) {
      card(table("git-status", "Git status", "as the pack saw it", [["code"], ["path"]], status, function (s) {
        return el("tr", { "class": "status-row" }, td("code", s.code), td("path", s.path));
      }).node);
    }
  }

  function fail(e) {
    root.dataset.rendered = "error";
    document.getElementById("status").textContent = "The page could not draw its tables: " + (e && e.message ? e.message : e);
    console.error("git speed report: " + (e && e.stack ? e.stack : e));
  }

  try {
    if (document.body.dataset.kind === "pack") pack(); else scope();
    void document.body.offsetHeight; // lay the tables out before the mark
    root.dataset.renderMs = String(Math.round(performance.now()));
    root.dataset.inflateMs = String(Math.round(inflateMs));
    root.dataset.rendered = "ok";
  } catch (e) {
    fail(e);
  }
})();
