// The stand-in host a plugin runs against: defineTool (the value schema DSL
// compiled as upstream's schema.ts does), an inert Schema, a ctx that
// records tool definitions, and the purity traps. No clock, randomness,
// timers, network or file system: reaching for one during a projector call
// is reported as impure by the Go side.
(function (g) {
  "use strict";
  var impure = g.__dshImpure; // (name) -> throws during projector calls, undefined while loading
  // --- purity traps -------------------------------------------------------
  var RealDate = g.Date;
  var TZ = "depends on the host's time zone", LOCALE = "depends on the host's locale";
  // SafeDate makes genuine Dates (Reflect.construct, so a subclass's
  // instances are its own and every Date method accepts them); only what
  // reads the clock or the local time zone is trapped. While loading, the
  // traps let the real behaviour through, as a library's module code
  // expects (new Date().getTimezoneOffset() at import time).
  function SafeDate(year, month, date, hours, minutes, seconds, ms) {
    // A construct call is one whose this is a fresh object of new.target's
    // prototype: goja leaks new.target into plain calls made inside a
    // constructor, where this is undefined.
    var nt = new.target;
    if (nt === undefined || this === undefined || this === null || Object.getPrototypeOf(this) !== nt.prototype) {
      impure("Date");
      return RealDate();
    }
    if (arguments.length === 0) { impure("Date"); }
    if (arguments.length > 1) { impure("new Date(year, month, ...)", TZ); }
    return Reflect.construct(RealDate, arguments, nt);
  }
  SafeDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, "constructor", { value: SafeDate, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(SafeDate, "prototype", { writable: false, enumerable: false, configurable: false });
  Object.defineProperty(SafeDate, "name", { value: "Date", configurable: true });
  ["UTC", "parse"].forEach(function (k) {
    Object.defineProperty(SafeDate, k, { value: RealDate[k], writable: true, configurable: true, enumerable: false });
  });
  var realNow = RealDate.now;
  Object.defineProperty(SafeDate, "now", { writable: true, configurable: true, enumerable: false,
    value: function now() { impure("Date.now"); return realNow.call(RealDate); } });
  g.Date = SafeDate;
  // What reads or writes local time, or formats for a locale, moves with
  // the host's TZ and locale in Node, and goja cannot reproduce V8's ICU
  // output either way: such calls are impure, not mismatches. A wrapper
  // keeps the original's name and length, which libraries read.
  function trap(proto, owner, names, why) {
    names.forEach(function (name) {
      var orig = proto[name];
      if (typeof orig !== "function") { return; }
      var label = owner + "." + name;
      var fn = function () { impure(label, why); return orig.apply(this, arguments); };
      Object.defineProperty(fn, "name", { value: name, configurable: true });
      Object.defineProperty(fn, "length", { value: orig.length, configurable: true });
      Object.defineProperty(proto, name, { configurable: true, writable: true, enumerable: false, value: fn });
    });
  }
  // Annex B's getYear, setYear and toGMTString, which V8 has and goja not.
  var DateProto = RealDate.prototype, origGetFullYear = DateProto.getFullYear, origSetFullYear = DateProto.setFullYear;
  [["getYear", function getYear() {
    var y = origGetFullYear.call(this);
    return y !== y ? NaN : y - 1900;
  }], ["setYear", function setYear(year) {
    var y = Number(year);
    if (y !== y) { DateProto.setTime.call(this, NaN); return NaN; }
    var yi = Math.trunc(y);
    return origSetFullYear.call(this, yi >= 0 && yi <= 99 ? 1900 + yi : y);
  }], ["toGMTString", DateProto.toUTCString]].forEach(function (m) {
    if (typeof DateProto[m[0]] !== "function") {
      Object.defineProperty(DateProto, m[0], { value: m[1], writable: true, configurable: true, enumerable: false });
    }
  });
  trap(RealDate.prototype, "Date.prototype", ["getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes",
    "getSeconds", "getTimezoneOffset", "getYear", "setFullYear", "setMonth", "setDate", "setHours", "setMinutes",
    "setSeconds", "setYear", "toString", "toDateString", "toTimeString"], TZ);
  trap(RealDate.prototype, "Date.prototype", ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"], LOCALE);
  trap(Number.prototype, "Number.prototype", ["toLocaleString"], LOCALE);
  trap(Array.prototype, "Array.prototype", ["toLocaleString"], LOCALE);
  trap(Object.prototype, "Object.prototype", ["toLocaleString"], LOCALE);
  trap(String.prototype, "String.prototype", ["localeCompare", "toLocaleUpperCase", "toLocaleLowerCase"], LOCALE);
  if (typeof BigInt === "function") { trap(BigInt.prototype, "BigInt.prototype", ["toLocaleString"], LOCALE); }
  var RealIntl = g.Intl;
  Object.defineProperty(g, "Intl", { configurable: true, enumerable: false, get: function () { impure("Intl", LOCALE); return RealIntl; } });
  var realRandom = Math.random;
  Object.defineProperty(Math, "random", { writable: true, configurable: true, enumerable: false,
    value: function random() { impure("Math.random"); return realRandom(); } });
  ["setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate", "queueMicrotask",
   "fetch", "XMLHttpRequest", "WebSocket", "EventSource", "require", "process", "performance", "crypto", "navigator",
   "Deno", "Bun", "__dirname", "__filename"].forEach(function (name) {
    Object.defineProperty(g, name, { configurable: true, enumerable: false, get: function () { return impure(name); } });
  });
  var noop = function () {};
  g.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop, dir: noop, table: noop };

  // --- node:* built-ins: stubs that throw when used ----------------------------
  // Names a namespace import (import * as fs) copies from a stub; any other
  // member is still reached through the stub itself.
  var NODE_NAMES = ("readFileSync writeFileSync appendFileSync existsSync readdirSync statSync lstatSync mkdirSync rmSync " +
    "unlinkSync renameSync copyFileSync openSync closeSync readSync writeSync readFile writeFile appendFile readdir stat mkdir rm " +
    "unlink rename access createReadStream createWriteStream watch promises constants " +
    "join resolve dirname basename extname relative normalize isAbsolute parse format sep delimiter posix win32 " +
    "homedir tmpdir platform arch cpus hostname userInfo networkInterfaces EOL type release totalmem freemem " +
    "exec execSync execFile execFileSync spawn spawnSync fork " +
    "randomUUID randomBytes randomInt createHash createHmac getRandomValues webcrypto subtle " +
    "request get createServer Agent fetch URL URLSearchParams fileURLToPath pathToFileURL " +
    "format inspect promisify callbackify types deprecate TextEncoder TextDecoder " +
    "env argv cwd exit nextTick hrtime pid memoryUsage uptime " +
    "setTimeout setInterval setImmediate clearTimeout clearInterval " +
    "EventEmitter once on Readable Writable Transform pipeline Buffer createInterface Worker isMainThread").split(" ")
    .filter(function (n, i, all) { return all.indexOf(n) === i; });
  g.__dshNodeStub = function (mod) {
    return new Proxy(function () {}, {
      get: function (t, key) {
        if (key === "__esModule" || key === "then" || typeof key === "symbol") { return undefined; }
        if (key === "default") { return g.__dshNodeStub(mod); }
        if (key === "prototype" || key === "length" || key === "name") { return t[key]; }
        return function () { return impure("node:" + mod + "." + String(key)); };
      },
      ownKeys: function (t) { return ["prototype"].concat(NODE_NAMES); },
      getOwnPropertyDescriptor: function (t, key) {
        if (key === "prototype") { return Object.getOwnPropertyDescriptor(t, key); }
        if (NODE_NAMES.indexOf(key) < 0) { return undefined; }
        return { configurable: true, enumerable: true, value: function () { return impure("node:" + mod + "." + String(key)); } };
      },
      apply: function () { return impure("node:" + mod); },
      construct: function () { return impure("node:" + mod); }
    });
  };

  // --- the value schema DSL (schema.ts) -------------------------------------
  var ANNOTATIONS = ["description", "title", "default", "examples"];
  function fail(msg) { throw new Error(msg); }
  function isRecord(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function annotate(out, spec) {
    ANNOTATIONS.forEach(function (k) { if (spec[k] !== undefined) { out[k] = spec[k]; } });
  }
  function compileValue(spec, path, seen) {
    if (!isRecord(spec)) { fail(path + " must be a value schema object"); }
    if (seen.indexOf(spec) >= 0) { fail(path + " is circular"); }
    seen = seen.concat([spec]);
    var out = {};
    if (spec.type !== undefined && spec.oneOf !== undefined) { fail(path + " cannot declare both type and oneOf"); }
    if (spec.oneOf !== undefined) {
      if (!Array.isArray(spec.oneOf) || spec.oneOf.length < 2) { fail(path + ".oneOf must be an array of at least two value schemas"); }
      out.oneOf = spec.oneOf.map(function (b, i) { return compileValue(b, path + ".oneOf[" + i + "]", seen); });
      annotate(out, spec);
      return out;
    }
    switch (spec.type) {
      case "json":
        annotate(out, spec);
        return out;
      case "object":
        out.type = "object";
        annotate(out, spec);
        if (spec.additionalProperties !== true && spec.additionalProperties !== false) { fail(path + ".additionalProperties must be explicitly true or false"); }
        out.additionalProperties = spec.additionalProperties;
        if (spec.properties !== undefined) {
          var compiled = compileProperties(spec.properties, path + ".properties", seen);
          out.properties = compiled.properties;
          if (compiled.required.length) { out.required = compiled.required; }
        }
        return out;
      case "array":
        out.type = "array";
        annotate(out, spec);
        if (spec.items !== undefined) { out.items = compileValue(spec.items, path + ".items", seen); }
        return out;
      case "string": case "number": case "integer": case "boolean": case "null":
        out.type = spec.type;
        annotate(out, spec);
        if (spec.enum !== undefined) { out.enum = spec.enum; }
        if (spec.const !== undefined) { out.const = spec.const; }
        return out;
    }
    return fail(path + ".type must be string/number/integer/boolean/null/array/object/json, or use oneOf");
  }
  function compileProperties(props, path, seen) {
    if (!isRecord(props)) { fail(path + " must be an object of value schemas"); }
    var out = { properties: {}, required: [] };
    Object.keys(props).forEach(function (k) {
      var p = props[k];
      if (isRecord(p) && p.required !== undefined && p.required !== true) { fail(path + "." + k + ".required must be true when present"); }
      var spec = {};
      if (isRecord(p)) { Object.keys(p).forEach(function (x) { if (x !== "required") { spec[x] = p[x]; } }); }
      out.properties[k] = compileValue(isRecord(p) ? spec : p, path + "." + k, seen);
      if (isRecord(p) && p.required === true) { out.required.push(k); }
    });
    return out;
  }
  function compileParameters(params) {
    var c = compileProperties(params || {}, "parameters", []);
    var out = { type: "object", properties: c.properties };
    if (c.required.length) { out.required = c.required; }
    return out;
  }
  var DEFINED = "__dshDefinedTool";
  function defineTool(def) {
    if (def && def[DEFINED]) { return def; }
    if (!isRecord(def) || typeof def.name !== "string") { fail("defineTool: a tool needs a name"); }
    var out = {};
    Object.keys(def).forEach(function (k) { out[k] = def[k]; });
    out.parameters = compileParameters(def.parameters);
    if (isRecord(def.output)) {
      out.output = {};
      Object.keys(def.output).forEach(function (k) { out.output[k] = def.output[k]; });
      out.output.schema = compileValue(def.output.schema, "schema", []);
    }
    Object.defineProperty(out, DEFINED, { value: true });
    return out;
  }

  // --- the host packages a plugin imports ------------------------------------
  function inert() {
    return new Proxy(function () {}, {
      get: function (t, key) {
        if (key === "then" || typeof key === "symbol") { return undefined; }
        return inert();
      },
      apply: function () { return inert(); },
      construct: function () { return inert(); }
    });
  }
  var host = {
    defineTool: defineTool,
    registerTool: function (ctx, def) { return register(def); },
    defineContentToolFixture: undefined,
    Schema: inert(),
    Context: function Context() {},
    Service: function Service() {}
  };
  g.__dshHost = new Proxy(host, {
    get: function (t, key) {
      if (key in t) { return t[key]; }
      if (key === "__esModule" || key === "then" || typeof key === "symbol") { return undefined; }
      return inert();
    }
  });

  // --- ctx: the Cordis context a plugin's apply(ctx, config) receives -----------
  // The tools service has the members LasmeX's Cordis inspector lists for
  // it (register, presentAs, restrict, guard, get, schemas, executionMode,
  // execute); register records the definition, the rest are inert.
  // Every other service, declared in inject or read with ctx.get, is an
  // inert stub.
  var tools = [];
  var touched = []; // ctx members the stand-in does not model, named when no tool is registered
  function register(def) {
    if (!isRecord(def) || typeof def.name !== "string") { fail("tools.register: a tool definition needs a name"); }
    if (def.name === "run_code") { fail("tools.register: \"run_code\" is reserved"); }
    for (var i = 0; i < tools.length; i++) {
      if (tools[i].name === def.name) { fail("tools.register: tool \"" + def.name + "\" is already registered"); }
    }
    tools.push(def);
    return function dispose() {
      var at = tools.indexOf(def);
      if (at >= 0) { tools.splice(at, 1); }
    };
  }
  function disposer() { return function dispose() {}; }
  function lookup(name) {
    for (var i = 0; i < tools.length; i++) { if (tools[i].name === name) { return tools[i]; } }
    return undefined;
  }
  var toolsService = {
    register: register,
    presentAs: disposer,
    restrict: disposer,
    guard: disposer,
    get: lookup,
    schemas: function () {
      return tools.map(function (t) { return JSON.parse(JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters })); });
    },
    executionMode: function (exec) {
      var t = exec && lookup(exec.name);
      try {
        return t && typeof t.isConcurrencySafe === "function" && t.isConcurrencySafe(exec.arguments) === true ? "parallel" : "exclusive";
      } catch (e) { return "exclusive"; }
    },
    execute: function () { return Promise.reject(new Error("tools.execute: replay runs no tools")); }
  };
  function service(name) { return name === "tools" ? toolsService : inert(); }
  // applyPlugin applies a Cordis plugin: a class (constructed), a
  // function (called), or an object with apply.
  function applyPlugin(plugin, config, ctx) {
    if (typeof plugin === "function") {
      if (plugin.prototype && plugin.prototype.constructor === plugin) { return new plugin(ctx, config); }
      return plugin(ctx, config);
    }
    if (plugin && typeof plugin.apply === "function") { return plugin.apply(ctx, config); }
    return fail("a plugin is a function, a class, or an object with apply(ctx, config)");
  }
  function makeContext() {
    var ctx;
    var known = {
      tools: toolsService,
      get: service,
      plugin: function (child, config) { applyPlugin(child, config === undefined ? {} : config, makeContext()); return { dispose: noop }; },
      inject: function (deps, fn) { if (typeof fn === "function") { fn(ctx); } return disposer(); },
      effect: function (fn) { var d = typeof fn === "function" ? fn() : undefined; return typeof d === "function" ? d : disposer(); },
      on: disposer,
      once: disposer,
      off: noop,
      emit: noop,
      parallel: function () { return Promise.resolve(); },
      serial: function () { return Promise.resolve(); },
      logger: function () { return g.console; }
    };
    ctx = new Proxy(known, {
      get: function (t, key) {
        if (key in t) { return t[key]; }
        if (typeof key === "string" && touched.indexOf(key) < 0) { touched.push(key); }
        return inert();
      }
    });
    return ctx;
  }
  // The module's plugin is the namespace when it exports apply, else its
  // default export; its declared name ("" when none: the plugin object's,
  // else the module's name export) keys its options.
  g.__dshPluginName = function (mod) {
    var plugin = pluginOf(mod);
    // A function's own name is its identifier, not a plugin name.
    if (plugin && typeof plugin !== "function" && typeof plugin.name === "string") { return plugin.name; }
    return typeof mod.name === "string" ? mod.name : "";
  };
  function pluginOf(mod) {
    if (typeof mod.apply === "function") { return mod; }
    var d = mod["default"];
    if (typeof d === "function" || (isRecord(d) && typeof d.apply === "function")) { return d; }
    return undefined;
  }
  // __dshApply applies the module's plugin and returns the ctx members the
  // stand-in does not model that it touched.
  g.__dshApply = function (mod, config) {
    var plugin = pluginOf(mod);
    if (plugin !== undefined) { applyPlugin(plugin, config, makeContext()); }
    // A module may also export its tool definitions as a tools array.
    if (Array.isArray(mod.tools)) { mod.tools.forEach(function (t) { register(t); }); }
    return touched.join(" ");
  };
  g.__dshTools = tools;
  g.__dshDefined = function (t) { return t[DEFINED] === true; };
  // Code a running harness evaluates (a cordis_define plugin, say) reaches
  // defineTool and registerTool through a global:
  // harness.registerTool(ctx, harness.defineTool({...})).
  g.harness = { defineTool: defineTool, registerTool: host.registerTool };

  // --- calls from Go ---------------------------------------------------------------
  // risky is set when a number goja may write wrongly was seen: one with a
  // fraction or past 2^53 (goja's shortest-digits fallback writes about 1
  // in 8,000 such doubles with a digit that does not read back, e.g.
  // 883.5856854275359 as 883.585685427536).
  var risky = false;
  // riskyNumber: a finite number goja may write wrongly (node.js uses it too).
  function riskyNumber(v) {
    return typeof v === "number" && (v % 1 !== 0 || v >= 9007199254740992 || v <= -9007199254740992) && isFinite(v);
  }
  g.__dshRiskyNumber = riskyNumber;
  // goja's own, taken before node.js wraps it: a value without risky
  // numbers needs no wrapping.
  var nativeStringify = JSON.stringify;
  function lossless(v) {
    if (v === null || typeof v === "string" || typeof v === "boolean") { return true; }
    if (typeof v === "number") {
      if (riskyNumber(v)) { risky = true; }
      return isFinite(v) && !(v === 0 && 1 / v < 0);
    }
    if (Array.isArray(v)) {
      for (var i = 0; i < v.length; i++) { if (!(i in v) || !lossless(v[i])) { return false; } }
      return true;
    }
    if (typeof v === "object") {
      var proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) { return false; }
      var keys = Object.keys(v);
      for (var j = 0; j < keys.length; j++) { if (!lossless(v[keys[j]])) { return false; } }
      return true;
    }
    return false;
  }
  // __dshCall runs one projector; it returns {u: true} for undefined,
  // {bad: true} for a value that is not lossless JSON, else {j: text}, or
  // {v: value} for Go to read when it holds a number goja may write wrongly.
  var NEVER_ABORTED = Object.freeze({ aborted: false, reason: undefined, onabort: null,
    addEventListener: noop, removeEventListener: noop, throwIfAborted: noop });
  // args and second arrive as JSON.parse would make them.
  g.__dshCall = function (i, which, args, second) {
    var t = tools[i];
    var fn;
    switch (which) {
      case "render": fn = t.output.render; break;
      case "presentationMeta": fn = t.output.presentationMeta; break;
      case "presentCall": fn = t.presentCall; break;
      case "presentResult": fn = t.presentResult; break;
      case "finalizeContent": fn = t.finalizeContent; break;
    }
    var out;
    switch (which) {
      case "presentCall": out = fn.call(t, args); break;
      case "presentResult": out = fn.call(t, args, second); break;
      // What of the execution replay knows: the name, the arguments, and a
      // signal that never aborts.
      case "finalizeContent": out = fn.call(t, { name: t.name, arguments: args, signal: NEVER_ABORTED }, second); break;
      default: out = fn.call(t.output, args, second);
    }
    if (out === undefined) { return { u: true }; }
    risky = false;
    if (!lossless(out)) { return { bad: true }; }
    return risky ? { v: out } : { j: nativeStringify(out) };
  };
})(globalThis);
