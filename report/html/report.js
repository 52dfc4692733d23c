(function () {
  "use strict";
  var calls = Array.prototype.slice.call(document.querySelectorAll("article.call"));
  var logs = Array.prototype.slice.call(document.querySelectorAll("section.log"));
  // Chunks of calls without findings that are still templates (see
  // HTMLEagerCards): cards are made from them only when needed.
  var lazies = Array.prototype.slice.call(document.querySelectorAll("div.lazy"));
  var $ = function (id) { return document.getElementById(id); };
  var fClass = $("f-class"), fTool = $("f-tool"), fLog = $("f-log"), fQ = $("f-q"), fBad = $("f-bad");
  function has(list, word) { return (" " + list + " ").indexOf(" " + word + " ") >= 0; }
  function toolCount(div, tool) {
    var m = (" " + div.dataset.tools + " ").match(new RegExp(" " + tool.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "=(\\d+) "));
    return m ? +m[1] : 0;
  }
  function materialize(div) {
    if (!div.isConnected || !div.classList.contains("lazy")) return [];
    var frag = div.querySelector("template").content;
    var made = Array.prototype.slice.call(frag.querySelectorAll("article.call"));
    div.replaceWith(frag);
    lazies.splice(lazies.indexOf(div), 1);
    made.forEach(function (c) { calls.push(c); });
    return made;
  }
  var state = {};
  function read() {
    state = { cls: fClass.value, tool: fTool.value, log: fLog.value, q: fQ.value.trim().toLowerCase(), onlyBad: fBad ? fBad.checked : false };
  }
  function match(c) {
    var s = state, sec = c.parentNode;
    if (s.onlyBad && !c.classList.contains("bad")) return false;
    if (s.cls && !has(c.dataset.classes, s.cls)) return false;
    if (s.tool && c.dataset.tool !== s.tool) return false;
    if (s.log && sec.dataset.log !== s.log) return false;
    if (s.q && c.textContent.toLowerCase().indexOf(s.q) < 0) return false;
    return true;
  }
  function apply() {
    read();
    var s = state, shown = 0, visibleIn = {};
    // A chunk that a filter narrows is turned into cards first; one that
    // nothing narrows stays a template and counts whole.
    lazies.slice().forEach(function (d) {
      var sec = d.parentNode, n = +d.dataset.n;
      if (s.onlyBad || s.cls || (s.log && sec.dataset.log !== s.log)) { d.hidden = true; return; }
      if (s.tool && toolCount(d, s.tool) === 0) { d.hidden = true; return; }
      if (s.q && d.querySelector("template").content.textContent.toLowerCase().indexOf(s.q) < 0) { d.hidden = true; return; }
      if (s.tool || s.q) { materialize(d); return; }
      d.hidden = false;
      shown += n;
      visibleIn[sec.dataset.log] = true;
    });
    calls.forEach(function (c) {
      var ok = match(c);
      c.hidden = !ok;
      if (ok) { shown++; visibleIn[c.parentNode.dataset.log] = true; }
    });
    logs.forEach(function (sec) {
      var own = Array.prototype.slice.call(sec.children).filter(function (e) { return e.classList.contains("finding"); });
      var ownOk = own.length > 0 && (!s.onlyBad || sec.classList.contains("bad")) && (!s.cls || has(sec.dataset.classes, s.cls)) && !s.tool && (!s.log || sec.dataset.log === s.log) &&
        (!s.q || sec.querySelector("h2").textContent.toLowerCase().indexOf(s.q) >= 0 || own.some(function (f) { return f.textContent.toLowerCase().indexOf(s.q) >= 0; }));
      own.forEach(function (f) { f.hidden = !ownOk; });
      sec.hidden = !visibleIn[sec.dataset.log] && !ownOk;
    });
    $("n-shown").textContent = shown;
    $("none").hidden = shown > 0 || logs.some(function (sec) { return !sec.hidden; });
    document.querySelectorAll(".class-filter").forEach(function (b) { b.classList.toggle("on", b.dataset.class === s.cls); });
  }
  // Chunks near the screen become cards (they are shown only when no filter
  // narrows them, so their cards all show).
  if (window.IntersectionObserver) {
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) { io.unobserve(e.target); materialize(e.target); }
      });
      // Cards that replaced a chunk above a deep-linked call moved it.
      if (pinned) pinned.scrollIntoView({ block: "start" });
    }, { rootMargin: "1500px 0px" });
    lazies.forEach(function (d) { io.observe(d); });
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
  // A deep link shows its call even when the filters would hide it, and
  // even when it is still in a template. It stays in view while chunks
  // around it turn into cards, until the reader scrolls or acts.
  var pinned = null;
  ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (t) {
    window.addEventListener(t, function () { pinned = null; }, { passive: true });
  });
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    if (!el) {
      lazies.some(function (d) {
        if (d.querySelector("template").content.getElementById(id)) { materialize(d); return true; }
        return false;
      });
      el = document.getElementById(id);
    }
    if (!el) return;
    read();
    if (el.classList.contains("call") && !match(el) || el.hidden || (el.parentNode && el.parentNode.hidden)) {
      fClass.value = ""; fTool.value = ""; fLog.value = ""; fQ.value = ""; if (fBad) fBad.checked = false;
    }
    apply();
    el.scrollIntoView({ block: "start" });
    pinned = el;
  }
  // Anchored elements stop below the sticky header (native fragment
  // scrolling included).
  function headRoom() {
    document.documentElement.style.setProperty("--head", (document.getElementById("top").offsetHeight + 8) + "px");
  }
  window.addEventListener("resize", headRoom);
  window.addEventListener("hashchange", reveal);
  headRoom();
  apply();
  reveal();
})();
