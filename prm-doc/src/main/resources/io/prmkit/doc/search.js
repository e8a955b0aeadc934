// prmkit doc: filters the index by structure, field or enum value name. No network, works from file://.
// A query matches a name when its parts (split at spaces, '_' and '.') occur in the name in that
// order, so "cqe_syndrome" finds cqe_error_syndrome and "cq size" finds log_cq_size.
(function () {
  "use strict";
  var box = document.getElementById("q");
  var count = document.getElementById("count");
  var entries = Array.prototype.slice.call(document.querySelectorAll("li[data-n]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section"));

  function parts(q) {
    return q.toLowerCase().split(/[\s_.]+/).filter(function (p) { return p.length > 0; });
  }

  function matches(name, ps) {
    var at = 0;
    for (var i = 0; i < ps.length; i++) {
      var j = name.indexOf(ps[i], at);
      if (j < 0) return false;
      at = j + ps[i].length;
    }
    return true;
  }

  function run() {
    var ps = parts(box.value);
    var shown = 0;
    entries.forEach(function (li) {
      var via = "";
      var ok = ps.length === 0 || matches(li.getAttribute("data-n"), ps);
      if (!ok) {
        var names = li.getAttribute("data-s").split(" ");
        for (var i = 0; i < names.length; i++) {
          if (names[i] && matches(names[i], ps)) { ok = true; via = names[i]; break; }
        }
      }
      li.hidden = !ok;
      var v = li.querySelector(".via");
      if (v) v.textContent = via ? "has " + via : "";
      if (ok) shown++;
    });
    sections.forEach(function (s) {
      s.hidden = s.querySelector("li[data-n]:not([hidden])") === null;
    });
    count.textContent = ps.length === 0 ? "" : shown + (shown === 1 ? " match" : " matches");
  }

  box.addEventListener("input", function () {
    run();
    try { history.replaceState(null, "", "#q=" + encodeURIComponent(box.value)); } catch (e) { /* some file:// setups refuse; the filter still works */ }
  });
  var m = /^#q=(.*)$/.exec(location.hash);
  if (m) box.value = decodeURIComponent(m[1]);
  run();
})();
