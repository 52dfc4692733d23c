// The pure parts of Node's built-in modules, as Node 22 on a POSIX host
// has them: node:path (posix; win32 and what needs the working directory
// are reported), URL for the inputs whose parse is certain (the rest is
// reported as unsupported rather than guessed), node:url's fileURLToPath,
// and Buffer.byteLength. A projector importing any other member gets the
// stub that fails when used (host.js).
(function (g) {
  "use strict";
  var unsupported = g.__dshUnsupported, impure = g.__dshImpure;

  function argType(name, value) {
    var got = value === null ? "null" : typeof value === "object" || typeof value === "function" ? "an instance of " + (value.constructor && value.constructor.name || "Object") : "type " + typeof value + " (" + String(value) + ")";
    var e = new TypeError("The \"" + name + "\" argument must be of type string. Received " + got);
    e.code = "ERR_INVALID_ARG_TYPE";
    return e;
  }
  function str(name, value) {
    if (typeof value !== "string") { throw argType(name, value); }
    return value;
  }

  // --- node:path (posix) --------------------------------------------------------
  var SLASH = 47, DOT = 46;
  // normalizeString resolves . and .. segments of a path without its root.
  function normalizeString(path, allowAboveRoot) {
    var res = "", lastSegmentLength = 0, lastSlash = -1, dots = 0, code = 0;
    for (var i = 0; i <= path.length; ++i) {
      if (i < path.length) { code = path.charCodeAt(i); } else if (code === SLASH) { break; } else { code = SLASH; }
      if (code === SLASH) {
        if (lastSlash === i - 1 || dots === 1) {
          // an empty or "." segment
        } else if (dots === 2) {
          if (res.length < 2 || lastSegmentLength !== 2 || res.charCodeAt(res.length - 1) !== DOT || res.charCodeAt(res.length - 2) !== DOT) {
            if (res.length > 2) {
              var at = res.lastIndexOf("/");
              if (at === -1) { res = ""; lastSegmentLength = 0; } else {
                res = res.slice(0, at);
                lastSegmentLength = res.length - 1 - res.lastIndexOf("/");
              }
              lastSlash = i; dots = 0;
              continue;
            } else if (res.length !== 0) {
              res = ""; lastSegmentLength = 0; lastSlash = i; dots = 0;
              continue;
            }
          }
          if (allowAboveRoot) { res += res.length > 0 ? "/.." : ".."; lastSegmentLength = 2; }
        } else {
          if (res.length > 0) { res += "/" + path.slice(lastSlash + 1, i); } else { res = path.slice(lastSlash + 1, i); }
          lastSegmentLength = i - lastSlash - 1;
        }
        lastSlash = i; dots = 0;
      } else if (code === DOT && dots !== -1) { ++dots; } else { dots = -1; }
    }
    return res;
  }
  var posix = {
    sep: "/",
    delimiter: ":",
    resolve: function resolve() {
      var resolved = "", absolute = false;
      for (var i = arguments.length - 1; i >= 0 && !absolute; i--) {
        var p = str("paths[" + i + "]", arguments[i]);
        if (p.length === 0) { continue; }
        resolved = p + "/" + resolved;
        absolute = p.charCodeAt(0) === SLASH;
      }
      if (!absolute) {
        // The rest is relative to the process's working directory.
        impure("node:path.resolve of a relative path", "depends on the working directory");
        resolved = "/" + resolved;
        absolute = true;
      }
      resolved = normalizeString(resolved, !absolute);
      return absolute ? "/" + resolved : resolved.length > 0 ? resolved : ".";
    },
    normalize: function normalize(path) {
      str("path", path);
      if (path.length === 0) { return "."; }
      var absolute = path.charCodeAt(0) === SLASH, trailing = path.charCodeAt(path.length - 1) === SLASH;
      path = normalizeString(path, !absolute);
      if (path.length === 0) { return absolute ? "/" : trailing ? "./" : "."; }
      if (trailing) { path += "/"; }
      return absolute ? "/" + path : path;
    },
    isAbsolute: function isAbsolute(path) { return str("path", path).length > 0 && path.charCodeAt(0) === SLASH; },
    join: function join() {
      if (arguments.length === 0) { return "."; }
      var parts = [];
      for (var i = 0; i < arguments.length; i++) {
        var a = str("path", arguments[i]);
        if (a.length > 0) { parts.push(a); }
      }
      return parts.length === 0 ? "." : posix.normalize(parts.join("/"));
    },
    relative: function relative(from, to) {
      str("from", from); str("to", to);
      if (from === to) { return ""; }
      from = posix.resolve(from); to = posix.resolve(to);
      if (from === to) { return ""; }
      var fromStart = 1, fromEnd = from.length, fromLen = fromEnd - fromStart, toStart = 1, toLen = to.length - toStart;
      var length = fromLen < toLen ? fromLen : toLen, lastCommonSep = -1, i = 0;
      for (; i < length; i++) {
        var fromCode = from.charCodeAt(fromStart + i);
        if (fromCode !== to.charCodeAt(toStart + i)) { break; } else if (fromCode === SLASH) { lastCommonSep = i; }
      }
      if (i === length) {
        if (toLen > length) {
          if (to.charCodeAt(toStart + i) === SLASH) { return to.slice(toStart + i + 1); }
          if (i === 0) { return to.slice(toStart + i); }
        } else if (fromLen > length) {
          if (from.charCodeAt(fromStart + i) === SLASH) { lastCommonSep = i; } else if (i === 0) { lastCommonSep = 0; }
        }
      }
      var out = "";
      for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
        if (i === fromEnd || from.charCodeAt(i) === SLASH) { out += out.length === 0 ? ".." : "/.."; }
      }
      return out + to.slice(toStart + lastCommonSep);
    },
    dirname: function dirname(path) {
      str("path", path);
      if (path.length === 0) { return "."; }
      var hasRoot = path.charCodeAt(0) === SLASH, end = -1, matchedSlash = true;
      for (var i = path.length - 1; i >= 1; --i) {
        if (path.charCodeAt(i) === SLASH) {
          if (!matchedSlash) { end = i; break; }
        } else { matchedSlash = false; }
      }
      if (end === -1) { return hasRoot ? "/" : "."; }
      if (hasRoot && end === 1) { return "//"; }
      return path.slice(0, end);
    },
    basename: function basename(path, suffix) {
      str("path", path);
      if (suffix !== undefined) { str("suffix", suffix); }
      var start = 0, end = -1, matchedSlash = true, i, code;
      if (suffix !== undefined && suffix.length > 0 && suffix.length <= path.length) {
        if (suffix === path) { return ""; }
        var extIdx = suffix.length - 1, firstNonSlashEnd = -1;
        for (i = path.length - 1; i >= 0; --i) {
          code = path.charCodeAt(i);
          if (code === SLASH) {
            if (!matchedSlash) { start = i + 1; break; }
          } else {
            if (firstNonSlashEnd === -1) { matchedSlash = false; firstNonSlashEnd = i + 1; }
            if (extIdx >= 0) {
              if (code === suffix.charCodeAt(extIdx)) {
                if (--extIdx === -1) { end = i; }
              } else { extIdx = -1; end = firstNonSlashEnd; }
            }
          }
        }
        if (start === end) { end = firstNonSlashEnd; } else if (end === -1) { end = path.length; }
        return path.slice(start, end);
      }
      for (i = path.length - 1; i >= 0; --i) {
        if (path.charCodeAt(i) === SLASH) {
          if (!matchedSlash) { start = i + 1; break; }
        } else if (end === -1) { matchedSlash = false; end = i + 1; }
      }
      return end === -1 ? "" : path.slice(start, end);
    },
    extname: function extname(path) {
      str("path", path);
      var startDot = -1, startPart = 0, end = -1, matchedSlash = true, preDotState = 0;
      for (var i = path.length - 1; i >= 0; --i) {
        var code = path.charCodeAt(i);
        if (code === SLASH) {
          if (!matchedSlash) { startPart = i + 1; break; }
          continue;
        }
        if (end === -1) { matchedSlash = false; end = i + 1; }
        if (code === DOT) {
          if (startDot === -1) { startDot = i; } else if (preDotState !== 1) { preDotState = 1; }
        } else if (startDot !== -1) { preDotState = -1; }
      }
      if (startDot === -1 || end === -1 || preDotState === 0 ||
          (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)) { return ""; }
      return path.slice(startDot, end);
    },
    toNamespacedPath: function toNamespacedPath(path) { return path; }
  };
  ["parse", "format", "matchesGlob"].forEach(function (k) {
    posix[k] = function () { return unsupported("node:path." + k); };
  });
  // win32 semantics (drive letters, UNC) are not reproduced.
  var win32 = new Proxy({}, {
    get: function (t, key) {
      if (typeof key === "symbol" || key === "then") { return undefined; }
      return function () { return unsupported("node:path.win32." + String(key)); };
    }
  });
  posix.posix = posix;
  posix.win32 = win32;

  // --- URL (WHATWG), for the inputs whose parse is certain ------------------------
  var SPECIAL = { "ftp:": "21", "file:": "", "http:": "80", "https:": "443", "ws:": "80", "wss:": "443" };
  function invalidURL(input) {
    var e = new TypeError("Invalid URL");
    e.code = "ERR_INVALID_URL";
    e.input = input;
    return e;
  }
  // needsEncoding: a character the URL standard would percent-encode here
  // (what is outside printable ASCII, and the set's own), which the sandbox
  // does not do.
  function needsEncoding(s, extra) {
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c <= 0x20 || c >= 0x7F || extra.indexOf(s.charAt(i)) >= 0) { return true; }
    }
    return false;
  }
  function parseURL(input) {
    var s = String(input).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
    var m = /^([A-Za-z][A-Za-z0-9+.\-]*):/.exec(s);
    if (!m) { return null; }
    var u = { protocol: m[1].toLowerCase() + ":", username: "", password: "", hostname: "", port: "", pathname: "", query: null, fragment: null, special: false };
    var rest = s.slice(m[0].length);
    var hashAt = rest.indexOf("#");
    if (hashAt >= 0) { u.fragment = rest.slice(hashAt + 1); rest = rest.slice(0, hashAt); }
    if (u.fragment !== null && needsEncoding(u.fragment, "\"<>`")) { return unsupported("URL with a fragment to percent-encode"); }
    u.special = Object.prototype.hasOwnProperty.call(SPECIAL, u.protocol);
    if (!u.special) {
      if (rest.charAt(0) === "/") { return unsupported("URL of a non-special scheme with a path or authority"); }
      var q = rest.indexOf("?");
      if (q >= 0) { u.query = rest.slice(q + 1); rest = rest.slice(0, q); }
      if (needsEncoding(rest, "") || u.query !== null && needsEncoding(u.query, "\"#<>")) { return unsupported("URL with characters to percent-encode"); }
      u.pathname = rest;
      u.opaque = true;
      return u;
    }
    rest = rest.replace(/\\/g, "/");
    var qAt = rest.indexOf("?");
    if (qAt >= 0) { u.query = rest.slice(qAt + 1); rest = rest.slice(0, qAt); }
    if (u.query !== null && needsEncoding(u.query, "\"#<>'")) { return unsupported("URL with a query to percent-encode"); }
    var slashes = /^\/*/.exec(rest)[0].length;
    if (u.protocol === "file:" && (slashes < 2 || slashes > 3)) { return unsupported("file: URL without two slashes"); }
    rest = rest.slice(u.protocol === "file:" ? 2 : slashes);
    var pathAt = rest.indexOf("/");
    var authority = pathAt >= 0 ? rest.slice(0, pathAt) : rest;
    var path = pathAt >= 0 ? rest.slice(pathAt) : "";
    var at = authority.lastIndexOf("@");
    if (at >= 0) {
      if (u.protocol === "file:") { return null; }
      var info = authority.slice(0, at), colon = info.indexOf(":");
      if (needsEncoding(info, "\"#<>?`{}/;=@[\\]^|")) { return unsupported("URL with credentials to percent-encode"); }
      u.username = colon >= 0 ? info.slice(0, colon) : info;
      u.password = colon >= 0 ? info.slice(colon + 1) : "";
      authority = authority.slice(at + 1);
    }
    if (authority.charAt(0) === "[") { return unsupported("URL with an IPv6 host"); }
    var portAt = authority.lastIndexOf(":");
    var host = portAt >= 0 ? authority.slice(0, portAt) : authority;
    if (portAt >= 0) {
      var port = authority.slice(portAt + 1);
      if (!/^[0-9]*$/.test(port)) { return null; }
      if (port !== "") {
        var n = Number(port);
        if (n > 65535) { return null; }
        u.port = String(n) === SPECIAL[u.protocol] ? "" : String(n);
      }
      if (u.protocol === "file:" && port !== "") { return null; }
    }
    if (host === "") {
      if (u.protocol !== "file:") { return null; }
    } else {
      if (/[^\u0021-\u007E]/.test(host) || host.indexOf("%") >= 0 || /(^|\.)xn--/i.test(host)) { return unsupported("URL with an internationalized or percent-encoded host"); }
      if (/[\u0000-\u001F #\/:<>?@\[\\\]^|\u007F]/.test(host)) { return null; }
      host = host.toLowerCase();
      var labels = host.split(".");
      var last = labels[labels.length - 1] === "" && labels.length > 1 ? labels[labels.length - 2] : labels[labels.length - 1];
      if (/^(0[xX][0-9a-fA-F]*|[0-9]+)$/.test(last)) {
        // An IPv4 address: only the canonical dotted quad is taken as is.
        var quad = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;
        if (!quad.test(host)) { return unsupported("URL with a numeric host to normalize"); }
      }
      if (u.protocol === "file:" && host === "localhost") { host = ""; }
    }
    u.hostname = host;
    if (needsEncoding(path, "\"#<>?`{}")) { return unsupported("URL with a path to percent-encode"); }
    if (/%2e/i.test(path)) { return unsupported("URL with a percent-encoded dot segment"); }
    if (u.protocol === "file:" && /^\/[A-Za-z][:|]/.test(path)) { return unsupported("file: URL with a Windows drive letter"); }
    var parts = path === "" ? [] : path.slice(1).split("/"), out = [];
    for (var i = 0; i < parts.length; i++) {
      var seg = parts[i], lastSeg = i === parts.length - 1;
      if (seg === "..") {
        if (out.length > 0) { out.pop(); }
        if (lastSeg) { out.push(""); }
      } else if (seg === ".") {
        if (lastSeg) { out.push(""); }
      } else { out.push(seg); }
    }
    u.pathname = "/" + out.join("/");
    return u;
  }
  var urls = new WeakMap();
  function rec(self) {
    var u = urls.get(self);
    if (u === undefined) { throw new TypeError("Receiver must be an instance of class URL"); }
    return u;
  }
  function href(u) {
    var auth = "";
    if (!u.opaque) {
      auth = "//";
      if (u.username !== "" || u.password !== "") { auth += u.username + (u.password !== "" ? ":" + u.password : "") + "@"; }
      auth += u.hostname + (u.port !== "" ? ":" + u.port : "");
    }
    return u.protocol + auth + u.pathname + (u.query !== null ? "?" + u.query : "") + (u.fragment !== null ? "#" + u.fragment : "");
  }
  function URL(url, base) {
    if (!(this instanceof URL)) { throw new TypeError("Class constructor URL cannot be invoked without 'new'"); }
    if (arguments.length === 0) { var e = new TypeError("The \"url\" argument must be specified"); e.code = "ERR_MISSING_ARGS"; throw e; }
    var input = String(url);
    var u = parseURL(input);
    if (base !== undefined) {
      var b = parseURL(String(base));
      if (b === null || b === undefined) { throw invalidURL(input); }
      if (u === null) { unsupported("URL relative to a base"); }
    }
    if (u === null || u === undefined) { throw invalidURL(input); }
    urls.set(this, u);
  }
  function getter(name, fn) {
    Object.defineProperty(URL.prototype, name, { configurable: true, enumerable: true,
      get: function () { return fn(rec(this)); },
      set: function () { unsupported("setting URL." + name); } });
  }
  getter("href", href);
  getter("protocol", function (u) { return u.protocol; });
  getter("username", function (u) { return u.username; });
  getter("password", function (u) { return u.password; });
  getter("host", function (u) { return u.hostname + (u.port !== "" ? ":" + u.port : ""); });
  getter("hostname", function (u) { return u.hostname; });
  getter("port", function (u) { return u.port; });
  getter("pathname", function (u) { return u.pathname; });
  getter("search", function (u) { return u.query === null || u.query === "" ? "" : "?" + u.query; });
  getter("hash", function (u) { return u.fragment === null || u.fragment === "" ? "" : "#" + u.fragment; });
  getter("origin", function (u) {
    return u.special && u.protocol !== "file:" ? u.protocol + "//" + u.hostname + (u.port !== "" ? ":" + u.port : "") : "null";
  });
  Object.defineProperty(URL.prototype, "searchParams", { configurable: true, enumerable: true, get: function () { return unsupported("URL.searchParams"); } });
  Object.defineProperty(URL.prototype, "toString", { configurable: true, writable: true, value: function toString() { return href(rec(this)); } });
  Object.defineProperty(URL.prototype, "toJSON", { configurable: true, writable: true, value: function toJSON() { return href(rec(this)); } });
  Object.defineProperty(URL.prototype, Symbol.toStringTag, { configurable: true, value: "URL" });
  URL.canParse = function canParse(url, base) {
    try { new URL(url, base); return true; } catch (e) { if (e && e.code === "ERR_INVALID_URL") { return false; } throw e; }
  };
  URL.parse = function parse(url, base) {
    try { return new URL(url, base); } catch (e) { if (e && e.code === "ERR_INVALID_URL") { return null; } throw e; }
  };
  ["createObjectURL", "revokeObjectURL"].forEach(function (k) { URL[k] = function () { return unsupported("URL." + k); }; });
  Object.defineProperty(g, "URL", { value: URL, writable: true, configurable: true, enumerable: false });

  // --- node:url ----------------------------------------------------------------
  function fileURLToPath(path, options) {
    var windows = options !== null && typeof options === "object" && options.windows !== undefined ? !!options.windows : false;
    if (typeof path === "string") { path = new URL(path); } else if (!urls.has(path)) {
      var e = new TypeError("The \"path\" argument must be of type string or an instance of URL. Received " + (path === null ? "null" : typeof path));
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    if (path.protocol !== "file:") { var s = new TypeError("The URL must be of scheme file"); s.code = "ERR_INVALID_URL_SCHEME"; throw s; }
    if (windows) { return unsupported("node:url.fileURLToPath for a Windows path"); }
    if (path.hostname !== "") {
      var h = new TypeError("File URL host must be \"localhost\" or empty on linux");
      h.code = "ERR_INVALID_FILE_URL_HOST";
      throw h;
    }
    var pathname = path.pathname;
    for (var n = 0; n < pathname.length; n++) {
      if (pathname.charAt(n) === "%" && pathname.charAt(n + 1) === "2" && (pathname.charCodeAt(n + 2) | 0x20) === 102) {
        var p = new TypeError("File URL path must not include encoded / characters");
        p.code = "ERR_INVALID_FILE_URL_PATH";
        throw p;
      }
    }
    return decodeURIComponent(pathname);
  }

  // --- Buffer: what a projector measures with ----------------------------------------
  // The UTF-8 length of a string, a lone surrogate as U+FFFD (3 bytes).
  function utf8Length(s) {
    var n = 0;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c < 0x80) { n += 1; } else if (c < 0x800) { n += 2; } else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.length &&
          s.charCodeAt(i + 1) >= 0xDC00 && s.charCodeAt(i + 1) <= 0xDFFF) { n += 4; i++; } else { n += 3; }
    }
    return n;
  }
  var Buffer = new Proxy(function Buffer() { return unsupported("Buffer"); }, {
    get: function (t, key) {
      if (key === "byteLength") {
        return function byteLength(s, encoding) {
          if (typeof s !== "string") { return unsupported("Buffer.byteLength of a " + typeof s); }
          var enc = encoding === undefined ? "utf8" : String(encoding).toLowerCase();
          if (enc !== "utf8" && enc !== "utf-8") { return unsupported("Buffer.byteLength in " + enc); }
          return utf8Length(s);
        };
      }
      if (key === "isBuffer") { return function isBuffer() { return false; }; }
      if (key === "prototype" || key === "name" || key === "length") { return t[key]; }
      if (typeof key === "symbol" || key === "then") { return undefined; }
      return function () { return unsupported("Buffer." + String(key)); };
    },
    construct: function () { return unsupported("Buffer"); }
  });
  Object.defineProperty(g, "Buffer", { value: Buffer, writable: true, configurable: true, enumerable: false });

  // --- the modules ----------------------------------------------------------------
  var stub = g.__dshNodeStub;
  function withStub(mod, members) {
    var rest = stub(mod);
    return new Proxy(members, {
      get: function (t, key) { return key in t ? t[key] : rest[key]; },
      // esbuild's interop copies the own keys; the rest falls to the stub.
      getPrototypeOf: function () { return rest; }
    });
  }
  var modules = {
    "path": function () { return posix; },
    "path/posix": function () { return posix; },
    "url": function () { return withStub("url", { URL: URL, fileURLToPath: fileURLToPath, pathToFileURL: function () { return unsupported("node:url.pathToFileURL"); } }); },
    "buffer": function () { return withStub("buffer", { Buffer: Buffer }); }
  };
  g.__dshNodeModule = function (mod) { return modules[mod] ? modules[mod]() : stub(mod); };
})(globalThis);
