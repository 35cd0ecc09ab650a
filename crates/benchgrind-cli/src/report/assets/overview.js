// benchgrind report overview: metric choice, sorting and filtering of the one table. The
// numbers of every metric are in the JSON block #data; the table starts with the first metric.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var table = document.getElementById("benchmarks");
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var metric = 0;
  var fmt = function (n) { return n.toLocaleString("en-US"); };
  function change(now, then) {
    if (now === null || then === null) { return null; }
    if (then === 0) { return now === 0 ? 0 : null; }
    return (now - then) / then * 100;
  }
  function pct(p) {
    if (p === null) { return "\u2014"; }
    var a = Math.abs(p);
    var digits = a !== 0 && a < 0.005 ? 4 : 2;
    return (p > 0 ? "+" : p < 0 ? "\u2212" : "\u00b1") + a.toFixed(digits) + "%";
  }
  function cell(td, p) {
    td.textContent = pct(p);
    td.dataset.value = p === null ? "" : String(p);
    td.className = p === null || p === 0 ? "muted" : p > 0 ? "worse" : "better";
  }
  function show() {
    rows.forEach(function (tr, i) {
      var v = data.values[i][metric] || [null, null, null];
      var cur = tr.cells[2];
      cur.textContent = v[0] === null ? "\u2014" : fmt(v[0]);
      cur.dataset.value = v[0] === null ? "" : String(v[0]);
      cell(tr.cells[3], change(v[0], v[1]));
      cell(tr.cells[4], change(v[0], v[2]));
    });
    document.getElementById("metric-head").textContent = data.metrics[metric];
  }
  document.getElementById("metric").addEventListener("change", function (e) {
    metric = Number(e.target.value);
    show();
  });
  var filter = document.getElementById("filter");
  var onlyBad = document.getElementById("only-bad");
  function applyFilter() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (tr) {
      var text = tr.dataset.id.toLowerCase();
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; }) &&
        (!onlyBad.checked || tr.dataset.status !== "ok");
      tr.hidden = !ok;
      shown += ok ? 1 : 0;
    });
    document.getElementById("shown").textContent = shown + " of " + rows.length;
  }
  filter.addEventListener("input", applyFilter);
  onlyBad.addEventListener("change", applyFilter);
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    if (!th.classList.contains("sort")) { return; }
    th.addEventListener("click", function () {
      var asc = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var key = function (tr) {
        var td = tr.cells[col];
        if (td.dataset.value === undefined) { return td.textContent.toLowerCase(); }
        return td.dataset.value === "" ? null : Number(td.dataset.value);
      };
      var sorted = rows.slice().sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === y) { return 0; }
        if (x === null) { return 1; }
        if (y === null) { return -1; }
        return (x < y ? -1 : 1) * (asc ? 1 : -1);
      });
      var frag = document.createDocumentFragment();
      sorted.forEach(function (tr) { frag.appendChild(tr); });
      body.appendChild(frag);
    });
  });
  applyFilter();
})();
