(function () {
  "use strict";
  var calls = Array.prototype.slice.call(document.querySelectorAll("article.call"));
  var logs = Array.prototype.slice.call(document.querySelectorAll("section.log"));
  var $ = function (id) { return document.getElementById(id); };
  var fClass = $("f-class"), fTool = $("f-tool"), fLog = $("f-log"), fQ = $("f-q"), fBad = $("f-bad");
  function has(list, word) { return (" " + list + " ").indexOf(" " + word + " ") >= 0; }
  function apply() {
    var cls = fClass.value, tool = fTool.value, log = fLog.value, q = fQ.value.trim().toLowerCase();
    var onlyBad = fBad ? fBad.checked : false, shown = 0;
    var visibleIn = {};
    calls.forEach(function (c) {
      var sec = c.parentNode, ok = true;
      if (onlyBad && !c.classList.contains("bad")) ok = false;
      if (ok && cls && !has(c.dataset.classes, cls)) ok = false;
      if (ok && tool && c.dataset.tool !== tool) ok = false;
      if (ok && log && sec.dataset.log !== log) ok = false;
      if (ok && q && c.textContent.toLowerCase().indexOf(q) < 0) ok = false;
      c.hidden = !ok;
      if (ok) { shown++; visibleIn[sec.dataset.log] = true; }
    });
    logs.forEach(function (s) {
      var own = Array.prototype.slice.call(s.children).filter(function (e) { return e.classList.contains("finding"); });
      var ownOk = own.length > 0 && (!onlyBad || s.classList.contains("bad")) && (!cls || has(s.dataset.classes, cls)) && !tool && (!log || s.dataset.log === log) &&
        (!q || s.querySelector("h2").textContent.toLowerCase().indexOf(q) >= 0 || own.some(function (f) { return f.textContent.toLowerCase().indexOf(q) >= 0; }));
      own.forEach(function (f) { f.hidden = !ownOk; });
      s.hidden = !visibleIn[s.dataset.log] && !ownOk;
    });
    $("n-shown").textContent = shown;
    $("none").hidden = shown > 0 || logs.some(function (s) { return !s.hidden; });
    document.querySelectorAll(".class-filter").forEach(function (b) { b.classList.toggle("on", b.dataset.class === cls); });
  }
  var timer = 0;
  [fClass, fTool, fLog, fBad].forEach(function (el) { if (el) el.addEventListener("change", apply); });
  fQ.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(apply, 120); });
  document.querySelectorAll(".class-filter").forEach(function (b) {
    b.addEventListener("click", function () {
      fClass.value = fClass.value === b.dataset.class ? "" : b.dataset.class;
      if (fBad && fClass.value) fBad.checked = false;
      apply();
    });
  });
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button.copy") : null;
    if (!b) return;
    var text = b.dataset.copy, done = function () { b.textContent = "copied"; setTimeout(function () { b.textContent = "copy"; }, 1200); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { select(b.previousElementSibling); });
    } else { select(b.previousElementSibling); }
  });
  function select(el) {
    var r = document.createRange(); r.selectNodeContents(el);
    var s = window.getSelection(); s.removeAllRanges(); s.addRange(r);
  }
  // A deep link shows its call even when the filters would hide it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    if (el.hidden || (el.parentNode && el.parentNode.hidden)) {
      fClass.value = ""; fTool.value = ""; fLog.value = ""; fQ.value = ""; if (fBad) fBad.checked = false;
      apply();
    }
    el.scrollIntoView({ block: "start" });
  }
  // Anchored elements stop below the sticky header (native fragment
  // scrolling included).
  function headRoom() {
    document.documentElement.style.setProperty("--head", (document.getElementById("top").offsetHeight + 8) + "px");
  }
  window.addEventListener("resize", headRoom);
  headRoom();
  window.addEventListener("hashchange", reveal);
  apply();
  reveal();
})();
