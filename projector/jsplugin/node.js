// What Node 22 gives a projector that goja lacks or gets wrong. The pure
// parts are implemented here as Node behaves (TextEncoder, TextDecoder,
// atob, btoa, structuredClone, Promise.withResolvers, String.prototype.isWellFormed and
// toWellFormed, Object.groupBy, Map.groupBy, the Set methods, V8's
// Error.captureStackTrace that custom error classes call), and so is what
// goja does otherwise than V8 where it can be reached (number methods and
// numbers written by String, join and JSON.stringify, Math.log/exp/log10/
// log2, split(""), the default sort order, JSON.parse, toISOString). The
// rest (URL, Buffer, ...), the regular expression syntax goja misreads
// (\p{...}, named groups, the v flag) and the Math functions whose last
// digit goja gets otherwise are reported as unsupported during a projector
// call: the call then reads "not verified", not as a divergence the plugin
// did not cause.
(function (g) {
  "use strict";
  var unsupported = g.__dshUnsupported; // (feature, why?) -> throws during projector calls, undefined while loading
  function define(obj, name, value) {
    if (obj[name] === undefined) {
      Object.defineProperty(obj, name, { value: value, writable: true, configurable: true, enumerable: false });
    }
  }
  function requireString(self, method) {
    if (self === null || self === undefined) { throw new TypeError("String.prototype." + method + " called on null or undefined"); }
    return String(self);
  }

  // --- globals Node has and the sandbox does not provide --------------------------
  ["URL", "URLSearchParams", "Buffer", "WeakRef", "FinalizationRegistry", "AbortController", "AbortSignal",
   "Blob", "File", "FormData", "Headers", "Request", "Response", "Iterator", "SharedArrayBuffer", "Atomics",
   "WebAssembly", "DOMException", "BroadcastChannel", "MessageChannel", "CompressionStream", "DecompressionStream",
   "ReadableStream", "WritableStream", "TransformStream"].forEach(function (name) {
    if (g[name] === undefined) {
      Object.defineProperty(g, name, { configurable: true, enumerable: false, get: function () { return unsupported(name); } });
    }
  });
  if (Array.fromAsync === undefined) {
    Object.defineProperty(Array, "fromAsync", { configurable: true, enumerable: false, get: function () { return unsupported("Array.fromAsync"); } });
  }
  // Promise.withResolvers (ES2024, in Node 22), which a library may call at import.
  define(Promise, "withResolvers", function withResolvers() {
    var out = {};
    out.promise = new this(function (resolve, reject) { out.resolve = resolve; out.reject = reject; });
    return { promise: out.promise, resolve: out.resolve, reject: out.reject };
  });

  // --- V8's Error extras, which custom error classes call ---------------------------------
  define(Error, "captureStackTrace", function captureStackTrace(target) {
    if (target === null || typeof target !== "object" && typeof target !== "function") {
      throw new TypeError("Invalid argument");
    }
    var head = String(target.name === undefined ? "Error" : target.name);
    var msg = target.message === undefined ? "" : String(target.message);
    Object.defineProperty(target, "stack", { value: msg ? head + ": " + msg : head, writable: true, configurable: true, enumerable: false });
  });
  if (Error.stackTraceLimit === undefined) { Error.stackTraceLimit = 10; }

  // --- Math: goja computes the transcendental functions with Go's math,
  // whose last digit differs from V8's (fdlibm) for a good share of inputs
  // (sin(1e10), log2(3), exp(-0.1094...)). Here they are fdlibm, as in V8
  // (fdlibm.go), but for pow, whose V8 algorithm the sandbox does not
  // reproduce: a pow both engines must answer alike passes (an argument
  // that is NaN, 0 or infinite, the power 0, 1, 0.5 or 2, integers within
  // 2^53, a power of two to an integer), any other is reported rather than
  // guessed. esbuild turns x ** y into Math.pow.
  var fdlibm = g.__dshFdlibm; // (name, x, y) -> number
  Object.defineProperty(Math, "atan2", { configurable: true, writable: true, enumerable: false,
    value: function atan2(y, x) { return fdlibm("atan2", Number(y), Number(x)); } });
  ["log", "exp", "log10", "log2", "sin", "cos", "tan", "atan", "cbrt", "asin", "acos", "sinh", "cosh", "tanh",
   "asinh", "acosh", "atanh"].forEach(function (name) {
    Object.defineProperty(Math, name, { configurable: true, writable: true, enumerable: false, value: function (x) {
      x = Number(x);
      var r = fdlibm(name, x, 0);
      if (r !== r && isFinite(x) && (name === "sin" || name === "cos" || name === "tan")) {
        // Past 2^19 pi/2, where fdlibm's reduction needs 1,200 bits of 2/pi.
        unsupported("Math." + name + " of " + x, "is beyond 2^19·π/2, the largest argument the sandbox reduces as V8 does");
      }
      return r;
    } });
  });
  var origLog2 = Math.log2; // exact for powers of two, which is all isPow2 asks
  function edge(v) { return v !== v || v === 0 || v === Infinity || v === -Infinity; }
  function isInt(v) { return v === Math.trunc(v) && Math.abs(v) <= 9007199254740992; }
  function isPow2(v) { v = Math.abs(v); if (!(v > 0) || v === Infinity) { return false; } var l = origLog2(v); return l === Math.trunc(l); }
  var origPow = Math.pow;
  Object.defineProperty(Math, "pow", { configurable: true, writable: true, enumerable: false, value: function pow(x, y) {
    var a = Number(x), b = Number(y), r = origPow(a, b);
    var alike = edge(a) || edge(b) || a === 1 || b === 1 || b === 0.5 || b === 2 ||
      isInt(a) && isInt(b) && b >= 0 && isInt(r) || isPow2(a) && isInt(b) && r !== 0 && isFinite(r);
    if (!alike) { unsupported("Math.pow", "goja computes with a last digit that can differ from V8's"); }
    return r;
  } });

  // --- Number formatting goja gets wrong ---------------------------------------------------
  // (-9.98).toPrecision(1) came out ".0", toString(radix) of a fraction
  // lost its sign and last digit, and toString() shares String(x)'s
  // misprints; these follow ECMAScript through numfmt.go. (String(x) and
  // template literals cannot be reached from here: see misprints.)
  var numfmt = g.__dshNumfmt; // (kind, x, n) -> string
  var NumberProto = Number.prototype, origToString = NumberProto.toString;
  function thisNumber(v, method) {
    if (typeof v === "number") { return v; }
    if (v instanceof Number) { return v.valueOf(); }
    throw new TypeError("Number.prototype." + method + " requires that 'this' be a Number");
  }
  function toInt(v) { var n = Number(v); return n !== n ? 0 : Math.trunc(n); }
  Object.defineProperty(NumberProto, "toPrecision", { configurable: true, writable: true, enumerable: false, value: function toPrecision(precision) {
    var x = thisNumber(this, "toPrecision");
    if (precision === undefined) { return String(x); }
    var p = toInt(precision);
    if (!isFinite(x)) { return String(x); }
    if (p < 1 || p > 100) { throw new RangeError("toPrecision() argument must be between 1 and 100"); }
    return numfmt("precision", x, p);
  } });
  Object.defineProperty(NumberProto, "toExponential", { configurable: true, writable: true, enumerable: false, value: function toExponential(digits) {
    var x = thisNumber(this, "toExponential");
    var f = toInt(digits);
    if (!isFinite(x)) { return String(x); }
    if (f < 0 || f > 100) { throw new RangeError("toExponential() argument must be between 0 and 100"); }
    return numfmt("exponential", x, digits === undefined ? -1 : f);
  } });
  Object.defineProperty(NumberProto, "toString", { configurable: true, writable: true, enumerable: false, value: function toString(radix) {
    var x = thisNumber(this, "toString");
    var r = radix === undefined ? 10 : toInt(radix);
    if (r < 2 || r > 36) { throw new RangeError("toString() radix must be between 2 and 36"); }
    if (!isFinite(x)) { return origToString.call(x); }
    return numfmt(r === 10 ? "string" : "radix", x, r);
  } });

  // --- numbers written through String(), join and JSON.stringify ---------------------------
  // goja misprints some doubles with 17 significant digits wherever it turns
  // a number into text. String(x), [...].join() and JSON.stringify are
  // reached here and write V8's digits; x + "" and template literals are
  // not (see misprints).
  var risky = g.__dshRiskyNumber; // host.js's test of a number goja may write wrongly
  var RealString = g.String;
  function String(value) {
    // (this, not new.target, which goja leaks into calls made inside a
    // constructor.)
    if (this instanceof RealString) { return arguments.length === 0 ? new RealString() : new RealString(value); }
    if (arguments.length === 0) { return ""; }
    return risky(value) ? numfmt("string", value, 10) : RealString(value);
  }
  String.prototype = RealString.prototype;
  // "a".constructor === String, as libraries test it.
  Object.defineProperty(RealString.prototype, "constructor", { value: String, writable: true, configurable: true, enumerable: false });
  Object.setPrototypeOf(String, RealString);
  ["fromCharCode", "fromCodePoint", "raw"].forEach(function (k) { String[k] = RealString[k]; });
  g.String = String;
  var origJoin = Array.prototype.join;
  Object.defineProperty(Array.prototype, "join", { configurable: true, writable: true, enumerable: false, value: function join(separator) {
    if (Array.isArray(this) && this.some(risky)) {
      return origJoin.call(this.map(function (v) { return risky(v) ? numfmt("string", v, 10) : v; }), separator);
    }
    return origJoin.apply(this, arguments);
  } });
  // JSON.stringify: risky numbers go through as placeholders the native
  // writes as strings, then become V8's digits. (An array replacer, which
  // also orders keys, is left to the native.)
  var origStringify = JSON.stringify, MARK = "\u0000dsh-number:";
  Object.defineProperty(JSON, "stringify", { configurable: true, writable: true, enumerable: false, value: function stringify(value, replacer, space) {
    if (Array.isArray(replacer)) { return origStringify.apply(JSON, arguments); }
    var numbers = [];
    var text = origStringify.call(JSON, value, function (k, v) {
      if (typeof replacer === "function") { v = replacer.call(this, k, v); }
      if (v instanceof Number) { v = v.valueOf(); }
      if (risky(v)) { numbers.push(numfmt("string", v, 10)); return MARK + (numbers.length - 1); }
      return v;
    }, space);
    if (numbers.length === 0 || text === undefined) { return text; }
    return text.replace(/"\\u0000dsh-number:(\d+)"/g, function (m, i) { return numbers[i]; });
  } });

  // --- strings, sorting, JSON.parse and dates where goja is not V8 -------------------------
  // goja splits "" and orders strings by code point; JavaScript does both
  // by UTF-16 code unit ("\ud83d\ude00".split("") has 2 elements, and
  // "\ud83d\ude00" < "\uffff"). The < operator itself cannot be reached.
  var origSplit = String.prototype.split;
  Object.defineProperty(String.prototype, "split", { configurable: true, writable: true, enumerable: false, value: function split(separator, limit) {
    if (separator === "" && this !== null && this !== undefined) {
      var s = String(this), lim = limit === undefined ? 4294967295 : limit >>> 0, out = [];
      for (var i = 0; i < s.length && out.length < lim; i++) { out.push(s.charAt(i)); }
      return out;
    }
    return origSplit.apply(this, arguments);
  } });
  function compareUnits(a, b) {
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) {
      var d = a.charCodeAt(i) - b.charCodeAt(i);
      if (d !== 0) { return d; }
    }
    return a.length - b.length;
  }
  function defaultCompare(x, y) {
    if (x === undefined) { return y === undefined ? 0 : 1; }
    if (y === undefined) { return -1; }
    return compareUnits(String(x), String(y));
  }
  var origSort = Array.prototype.sort, origToSorted = Array.prototype.toSorted;
  Object.defineProperty(Array.prototype, "sort", { configurable: true, writable: true, enumerable: false, value: function sort(comparefn) {
    return origSort.call(this, comparefn === undefined ? defaultCompare : comparefn);
  } });
  if (origToSorted) {
    Object.defineProperty(Array.prototype, "toSorted", { configurable: true, writable: true, enumerable: false, value: function toSorted(comparefn) {
      return origToSorted.call(this, comparefn === undefined ? defaultCompare : comparefn);
    } });
  }
  // goja's JSON.parse throws on 1e400 (Infinity in V8) and turns "\ud800"
  // into U+FFFD; the text is parsed as the project reads logs instead.
  var parseJSON = g.__dshParseJSON; // (text) -> value, or throws SyntaxError
  function internalize(holder, key, reviver) {
    var val = holder[key];
    if (val !== null && typeof val === "object") {
      if (Array.isArray(val)) {
        for (var i = 0; i < val.length; i++) { revive(val, String(i), reviver); }
      } else {
        Object.keys(val).forEach(function (k) { revive(val, k, reviver); });
      }
    }
    return reviver.call(holder, key, val);
  }
  function revive(obj, k, reviver) {
    var v = internalize(obj, k, reviver);
    if (v === undefined) { delete obj[k]; } else {
      Object.defineProperty(obj, k, { value: v, writable: true, enumerable: true, configurable: true });
    }
  }
  Object.defineProperty(JSON, "parse", { configurable: true, writable: true, enumerable: false, value: function parse(text, reviver) {
    var v = parseJSON(String(text));
    return typeof reviver === "function" ? internalize({ "": v }, "", reviver) : v;
  } });
  // Years outside 0..9999 have six digits and a sign in toISOString.
  var origISO = Date.prototype.toISOString;
  Object.defineProperty(Date.prototype, "toISOString", { configurable: true, writable: true, enumerable: false, value: function toISOString() {
    var s = origISO.call(this), y = this.getUTCFullYear();
    if (y >= 0 && y <= 9999) { return s; }
    var six = String(Math.abs(y));
    while (six.length < 6) { six = "0" + six; }
    return (y < 0 ? "-" : "+") + six + s.slice(s.indexOf("-", 1));
  } });

  // --- regular expressions ------------------------------------------------------------
  // esbuild (target ES2017) turns a literal with ES2018 syntax into
  // new RegExp(...), so every such pattern passes through here.
  function unsupportedSyntax(source, flags) {
    if (flags.indexOf("v") >= 0) { return "the v flag of regular expressions"; }
    var inClass = false;
    for (var i = 0; i < source.length; i++) {
      var c = source.charAt(i);
      if (c === "\\") {
        var n = source.charAt(i + 1);
        if ((n === "p" || n === "P") && source.charAt(i + 2) === "{" && flags.indexOf("u") >= 0) {
          return "Unicode property escapes (\\" + n + "{...}) in regular expressions";
        }
        if (n === "k" && source.charAt(i + 2) === "<") { return "named backreferences (\\k<name>) in regular expressions"; }
        i++;
        continue;
      }
      if (inClass) {
        if (c === "]") { inClass = false; }
        continue;
      }
      if (c === "[") { inClass = true; continue; }
      if (c === "(" && source.charAt(i + 1) === "?" && source.charAt(i + 2) === "<" &&
          source.charAt(i + 3) !== "=" && source.charAt(i + 3) !== "!") {
        return "named capture groups ((?<name>...)) in regular expressions";
      }
    }
    return "";
  }
  var RealRegExp = g.RegExp;
  function RegExp(pattern, flags) {
    var isRe = pattern instanceof RealRegExp;
    var source = isRe ? pattern.source : (pattern === undefined ? "" : String(pattern));
    var fl = flags !== undefined ? String(flags) : (isRe ? pattern.flags : "");
    var bad = unsupportedSyntax(source, fl);
    if (bad) { unsupported(bad, "goja's regular expressions get wrong without an error"); }
    return this instanceof RealRegExp ? Reflect.construct(RealRegExp, arguments, this.constructor) : RealRegExp.apply(undefined, arguments);
  }
  RegExp.prototype = RealRegExp.prototype;
  Object.defineProperty(RealRegExp.prototype, "constructor", { value: RegExp, writable: true, configurable: true, enumerable: false });
  Object.setPrototypeOf(RegExp, RealRegExp);
  g.RegExp = RegExp;

  // --- String.prototype.isWellFormed, toWellFormed ------------------------------------
  function wellFormed(s, replace) {
    var out = "", ok = true;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.length) {
        var d = s.charCodeAt(i + 1);
        if (d >= 0xDC00 && d <= 0xDFFF) {
          if (replace) { out += s.charAt(i) + s.charAt(i + 1); }
          i++;
          continue;
        }
      }
      if (c >= 0xD800 && c <= 0xDFFF) {
        if (!replace) { return false; }
        ok = false;
        out += "\uFFFD";
        continue;
      }
      if (replace) { out += s.charAt(i); }
    }
    return replace ? (ok ? s : out) : true;
  }
  define(String.prototype, "isWellFormed", function isWellFormed() { return wellFormed(requireString(this, "isWellFormed"), false); });
  define(String.prototype, "toWellFormed", function toWellFormed() { return wellFormed(requireString(this, "toWellFormed"), true); });

  // --- Object.groupBy, Map.groupBy ----------------------------------------------------
  function groupBy(items, callback, toKey, out, add) {
    if (typeof callback !== "function") { throw new TypeError(String(callback) + " is not a function"); }
    var k = 0;
    for (var x of items) { add(out, toKey(callback(x, k++)), x); }
    return out;
  }
  define(Object, "groupBy", function groupBy_(items, callback) {
    return groupBy(items, callback, function (key) { return typeof key === "symbol" ? key : String(key); },
      Object.create(null), function (out, key, x) { if (key in out) { out[key].push(x); } else { out[key] = [x]; } });
  });
  define(Map, "groupBy", function groupBy_(items, callback) {
    return groupBy(items, callback, function (key) { return key === 0 ? 0 : key; },
      new Map(), function (out, key, x) { if (out.has(key)) { out.get(key).push(x); } else { out.set(key, [x]); } });
  });

  // --- Set methods (ES2025, in Node 22) -------------------------------------------------
  function setRecord(other) {
    if (other === null || typeof other !== "object" && typeof other !== "function") { throw new TypeError("The 'other' argument must be an object"); }
    var size = Number(other.size);
    if (size !== size) { throw new TypeError("The 'size' property must be a number"); }
    size = Math.trunc(size);
    if (size < 0) { throw new RangeError("The 'size' property must be greater than or equal to 0"); }
    var has = other.has, keys = other.keys;
    if (typeof has !== "function") { throw new TypeError("The 'has' property must be a function"); }
    if (typeof keys !== "function") { throw new TypeError("The 'keys' property must be a function"); }
    return {
      size: size,
      has: function (v) { return !!has.call(other, v); },
      each: function (fn) {
        var it = keys.call(other);
        for (var r = it.next(); !r.done; r = it.next()) {
          if (fn(r.value === 0 ? 0 : r.value) === false) { if (typeof it["return"] === "function") { it["return"](); } return false; }
        }
        return true;
      }
    };
  }
  function thisSet(self, name) {
    if (!(self instanceof Set)) { throw new TypeError("Method Set.prototype." + name + " called on incompatible receiver"); }
    return self;
  }
  var setMethods = {
    union: function (other) {
      var s = thisSet(this, "union"), o = setRecord(other), out = new Set(s);
      o.each(function (v) { out.add(v); });
      return out;
    },
    intersection: function (other) {
      var s = thisSet(this, "intersection"), o = setRecord(other), out = new Set();
      if (s.size <= o.size) {
        Array.from(s).forEach(function (v) { if (o.has(v)) { out.add(v); } });
      } else {
        o.each(function (v) { if (s.has(v)) { out.add(v); } });
      }
      return out;
    },
    difference: function (other) {
      var s = thisSet(this, "difference"), o = setRecord(other), out = new Set(s);
      if (s.size <= o.size) {
        Array.from(s).forEach(function (v) { if (o.has(v)) { out["delete"](v); } });
      } else {
        o.each(function (v) { out["delete"](v); });
      }
      return out;
    },
    symmetricDifference: function (other) {
      var s = thisSet(this, "symmetricDifference"), o = setRecord(other), out = new Set(s);
      o.each(function (v) { if (s.has(v)) { out["delete"](v); } else { out.add(v); } });
      return out;
    },
    isSubsetOf: function (other) {
      var s = thisSet(this, "isSubsetOf"), o = setRecord(other);
      if (s.size > o.size) { return false; }
      return Array.from(s).every(function (v) { return o.has(v); });
    },
    isSupersetOf: function (other) {
      var s = thisSet(this, "isSupersetOf"), o = setRecord(other);
      if (s.size < o.size) { return false; }
      return o.each(function (v) { return s.has(v); });
    },
    isDisjointFrom: function (other) {
      var s = thisSet(this, "isDisjointFrom"), o = setRecord(other);
      if (s.size <= o.size) { return Array.from(s).every(function (v) { return !o.has(v); }); }
      return o.each(function (v) { return !s.has(v); });
    }
  };
  Object.keys(setMethods).forEach(function (name) { define(Set.prototype, name, setMethods[name]); });

  // --- TextEncoder, TextDecoder (UTF-8, as the WHATWG Encoding standard) ---------------
  function utf8(s) {
    s = wellFormed(s, true);
    var out = [];
    for (var i = 0; i < s.length; i++) {
      var c = s.codePointAt(i);
      if (c > 0xFFFF) { i++; }
      if (c < 0x80) { out.push(c); } else if (c < 0x800) { out.push(0xC0 | c >> 6, 0x80 | c & 63); } else if (c < 0x10000) {
        out.push(0xE0 | c >> 12, 0x80 | c >> 6 & 63, 0x80 | c & 63);
      } else { out.push(0xF0 | c >> 18, 0x80 | c >> 12 & 63, 0x80 | c >> 6 & 63, 0x80 | c & 63); }
    }
    return out;
  }
  function TextEncoder() {
    if (!(this instanceof TextEncoder)) { throw new TypeError("Class constructor TextEncoder cannot be invoked without 'new'"); }
  }
  Object.defineProperty(TextEncoder.prototype, "encoding", { get: function () { return "utf-8"; }, configurable: true });
  TextEncoder.prototype.encode = function encode(input) { return new Uint8Array(utf8(input === undefined ? "" : String(input))); };
  TextEncoder.prototype.encodeInto = function encodeInto(src, dest) {
    var s = wellFormed(String(src), true), read = 0, written = 0;
    for (var i = 0; i < s.length; i++) {
      var c = s.codePointAt(i), units = c > 0xFFFF ? 2 : 1, bytes = utf8(String.fromCodePoint(c));
      if (written + bytes.length > dest.length) { break; }
      for (var j = 0; j < bytes.length; j++) { dest[written++] = bytes[j]; }
      read += units;
      i += units - 1;
    }
    return { read: read, written: written };
  };
  var UTF8_LABELS = ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"];
  function bytesOf(input) {
    if (input === undefined) { return new Uint8Array(0); }
    if (input instanceof ArrayBuffer) { return new Uint8Array(input); }
    if (ArrayBuffer.isView(input)) { return new Uint8Array(input.buffer, input.byteOffset, input.byteLength); }
    throw new TypeError("The \"input\" argument must be an instance of ArrayBuffer or ArrayBufferView");
  }
  function TextDecoder(label, options) {
    if (!(this instanceof TextDecoder)) { throw new TypeError("Class constructor TextDecoder cannot be invoked without 'new'"); }
    var l = label === undefined ? "utf-8" : String(label).trim().toLowerCase();
    if (UTF8_LABELS.indexOf(l) < 0) { unsupported("TextDecoder for " + JSON.stringify(String(label))); }
    this._fatal = !!(options && options.fatal);
    this._ignoreBOM = !!(options && options.ignoreBOM);
  }
  Object.defineProperty(TextDecoder.prototype, "encoding", { get: function () { return "utf-8"; }, configurable: true });
  Object.defineProperty(TextDecoder.prototype, "fatal", { get: function () { return this._fatal; }, configurable: true });
  Object.defineProperty(TextDecoder.prototype, "ignoreBOM", { get: function () { return this._ignoreBOM; }, configurable: true });
  TextDecoder.prototype.decode = function decode(input, options) {
    if (options && options.stream) { unsupported("TextDecoder.decode with {stream: true}"); }
    var b = bytesOf(input), fatal = this._fatal, out = [], chunks = "";
    var needed = 0, seen = 0, cp = 0, lower = 0x80, upper = 0xBF;
    function error() {
      if (fatal) { throw new TypeError("The encoded data was not valid for encoding utf-8"); }
      out.push(0xFFFD);
    }
    function flush() { chunks += String.fromCodePoint.apply(null, out); out = []; }
    for (var i = 0; i < b.length; i++) {
      var x = b[i];
      if (needed === 0) {
        if (x <= 0x7F) { out.push(x); } else if (x >= 0xC2 && x <= 0xDF) { needed = 1; cp = x & 0x1F; } else if (x >= 0xE0 && x <= 0xEF) {
          if (x === 0xE0) { lower = 0xA0; }
          if (x === 0xED) { upper = 0x9F; }
          needed = 2; cp = x & 0xF;
        } else if (x >= 0xF0 && x <= 0xF4) {
          if (x === 0xF0) { lower = 0x90; }
          if (x === 0xF4) { upper = 0x8F; }
          needed = 3; cp = x & 0x7;
        } else { error(); }
      } else if (x < lower || x > upper) {
        needed = seen = cp = 0; lower = 0x80; upper = 0xBF;
        error();
        i--; // the byte starts over
      } else {
        lower = 0x80; upper = 0xBF;
        cp = cp << 6 | x & 0x3F;
        if (++seen === needed) { out.push(cp); needed = seen = cp = 0; }
      }
      if (out.length >= 4096) { flush(); }
    }
    if (needed !== 0) { error(); }
    flush();
    if (!this._ignoreBOM && chunks.charCodeAt(0) === 0xFEFF) { chunks = chunks.slice(1); }
    return chunks;
  };
  define(g, "TextEncoder", TextEncoder);
  define(g, "TextDecoder", TextDecoder);

  // --- atob, btoa (forgiving base64) --------------------------------------------------------
  var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  function domError(name, message) { var e = new Error(message); e.name = name; return e; }
  define(g, "btoa", function btoa(data) {
    if (arguments.length === 0) { throw new TypeError("The \"data\" argument must be specified"); }
    var s = String(data), out = "";
    for (var i = 0; i < s.length; i++) { if (s.charCodeAt(i) > 0xFF) { throw domError("InvalidCharacterError", "Invalid character"); } }
    for (var j = 0; j < s.length; j += 3) {
      var a = s.charCodeAt(j), b = j + 1 < s.length ? s.charCodeAt(j + 1) : NaN, c = j + 2 < s.length ? s.charCodeAt(j + 2) : NaN;
      out += B64.charAt(a >> 2) + B64.charAt((a & 3) << 4 | (b | 0) >> 4) +
        (b === b ? B64.charAt((b & 15) << 2 | (c | 0) >> 6) : "=") + (c === c ? B64.charAt(c & 63) : "=");
    }
    return out;
  });
  define(g, "atob", function atob(data) {
    if (arguments.length === 0) { throw new TypeError("The \"data\" argument must be specified"); }
    var s = String(data).replace(/[\t\n\f\r ]/g, "");
    if (s.length % 4 === 0) { s = s.replace(/==?$/, ""); }
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) {
      throw domError("InvalidCharacterError", "The string to be decoded is not correctly encoded.");
    }
    var out = "", bits = 0, n = 0;
    for (var i = 0; i < s.length; i++) {
      bits = bits << 6 | B64.indexOf(s.charAt(i));
      n += 6;
      if (n >= 8) { n -= 8; out += String.fromCharCode(bits >> n & 0xFF); }
    }
    return out;
  });

  // --- structuredClone (the data a projector handles) -------------------------------------
  define(g, "structuredClone", function structuredClone(value) {
    var memo = new Map();
    function clone(v) {
      if (v === null || typeof v !== "object" && typeof v !== "function") {
        if (typeof v === "symbol") { throw domError("DataCloneError", String(v) + " could not be cloned."); }
        return v;
      }
      if (typeof v === "function") { throw domError("DataCloneError", String(v) + " could not be cloned."); }
      if (memo.has(v)) { return memo.get(v); }
      var out;
      if (Array.isArray(v)) {
        out = new Array(v.length);
        memo.set(v, out);
        Object.keys(v).forEach(function (k) { out[k] = clone(v[k]); });
        return out;
      }
      if (v instanceof Date) { out = new Date(v.getTime()); memo.set(v, out); return out; }
      if (v instanceof Map) {
        out = new Map();
        memo.set(v, out);
        v.forEach(function (x, k) { out.set(clone(k), clone(x)); });
        return out;
      }
      if (v instanceof Set) {
        out = new Set();
        memo.set(v, out);
        v.forEach(function (x) { out.add(clone(x)); });
        return out;
      }
      if (v instanceof RealRegExp) { out = new RealRegExp(v.source, v.flags); memo.set(v, out); return out; }
      var proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) { unsupported("structuredClone of a " + (v.constructor && v.constructor.name || "non-plain") + " object"); }
      out = {};
      memo.set(v, out);
      Object.keys(v).forEach(function (k) { out[k] = clone(v[k]); });
      return out;
    }
    return clone(value);
  });
})(globalThis);
