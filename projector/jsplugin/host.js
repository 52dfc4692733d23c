// The stand-in host a plugin runs against: defineTool (the value schema DSL
// compiled as upstream's schema.ts does), an inert Schema, a ctx that
// records tool definitions, and the purity traps. No clock, randomness,
// timers, network or file system: reaching for one during a projector call
// is reported as impure by the Go side.
(function (g) {
  "use strict";
  var impure = g.__dshImpure; // (name) -> throws during projector calls, undefined while loading
  // --- purity traps -------------------------------------------------------
  var RealDate = g.Date, origDateToString = RealDate.prototype.toString;
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
      impure("Date", TZ);
      return origDateToString.call(new RealDate(clock("Date")));
    }
    if (arguments.length === 0) { return Reflect.construct(RealDate, [clock("Date")], nt); }
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
  // The clock: the real one while loading; in a projector call a pinned
  // instant (Go runs the call again at another one, and only a call whose
  // answer moves with it is impure: a library may read the clock for a
  // deadline that never fires, as jsdiff does).
  var clockNow = g.__dshClock; // (name) -> the pinned instant during a call, undefined while loading
  function clock(name) {
    var t = clockNow(name);
    return t === undefined ? realNow.call(RealDate) : t;
  }
  Object.defineProperty(SafeDate, "now", { writable: true, configurable: true, enumerable: false,
    value: function now() { return clock("Date.now"); } });
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

  // --- the host packages a plugin imports ------------------------------------
  // Installed, the harness's own packages are bundled for real (defineTool
  // included, marked as made by it); the stand-in below answers only for
  // one that is not installed: defineTool as the harness's, the rest inert.
  // An inert value converts to "" or NaN, so that a plugin comparing a
  // stub service's limit at load goes on (NaN compares false).
  var inerts = new WeakSet();
  function inertPrimitive(hint) { return hint === "string" ? "" : NaN; }
  function inert() {
    var p = new Proxy(function () {}, {
      get: function (t, key) {
        if (key === Symbol.toPrimitive) { return inertPrimitive; }
        if (key === "then" || typeof key === "symbol") { return undefined; }
        return inert();
      },
      apply: function () { return inert(); },
      construct: function () { return inert(); }
    });
    inerts.add(p);
    return p;
  }
  var DEFINED = "__dshDefinedTool";
  function markDefined(t) {
    if (isRecord(t) && !t[DEFINED]) { Object.defineProperty(t, DEFINED, { value: true }); }
    return t;
  }
  g.__dshMarkDefined = markDefined;
  function defineTool(def) {
    if (!isRecord(def) || typeof def.name !== "string") { fail("defineTool: a tool needs a name"); }
    if (def.timeoutMs !== undefined && !(typeof def.timeoutMs === "number" && isFinite(def.timeoutMs) && def.timeoutMs > 0)) {
      fail("defineTool(" + def.name + "): timeoutMs must be a positive finite number");
    }
    var out = {};
    Object.keys(def).forEach(function (k) { out[k] = def[k]; });
    out.parameters = compileParameters(def.parameters);
    if (isRecord(def.output)) {
      out.output = {};
      Object.keys(def.output).forEach(function (k) { out.output[k] = def.output[k]; });
      out.output.schema = compileValue(def.output.schema, "schema", []);
    }
    return markDefined(out);
  }
  var host = { defineTool: defineTool };
  // What a named import finds missing is inert: esbuild's interop copies
  // the own keys into an object made from this prototype.
  var rest = new Proxy({}, {
    get: function (t, key) {
      if (key === "__esModule" || key === "then" || typeof key === "symbol") { return undefined; }
      return inert();
    }
  });
  g.__dshHost = new Proxy(host, {
    get: function (t, key) {
      if (key in t) { return t[key]; }
      return rest[key];
    },
    getPrototypeOf: function () { return rest; }
  });

  // --- ctx: the Cordis context a plugin's apply(ctx, config) receives -----------
  // The tools service is ToolRuntime's register (its checks and messages)
  // recording the definition, with the other members LasmeX's Cordis
  // inspector lists for it: get, schemas, executionMode from what is
  // registered; presentAs, restrict, guard inert; execute rejects. Every
  // other service, declared in inject or read with ctx.get, is an inert stub.
  var tools = [];
  var touched = []; // ctx members the stand-in does not model, named when no tool is registered
  function register(def) {
    if (!isRecord(def) || typeof def.name !== "string") { fail("tools.register: a tool definition needs a name"); }
    var name = def.name, output = def.output;
    if (output === undefined || output === null || typeof output !== "object" || typeof output.render !== "function" ||
        (output.presentationMeta !== undefined && typeof output.presentationMeta !== "function")) {
      throw new TypeError("tool \"" + name + "\" must declare output { schema, render, presentationMeta? }");
    }
    if (def.timeoutMs !== undefined && !(typeof def.timeoutMs === "number" && isFinite(def.timeoutMs) && def.timeoutMs > 0)) {
      throw new TypeError("tool \"" + name + "\" timeoutMs must be a positive finite number");
    }
    if (name === "run_code") {
      fail("tool name \"run_code\" is reserved for the Code Mode presentation transport and cannot be registered or shadowed");
    }
    for (var i = 0; i < tools.length; i++) {
      if (tools[i].name === name) {
        fail("tool \"" + name + "\" is already registered (for a per-agent variant, register through that agent's `agent.ctx` instead)");
      }
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
  // ctx.get reads an optional service: the tools service, else an inert
  // stub, as in a deployment that mounts them all; but no code runtime
  // (replay runs no code), for which run_code's schema falls back to its
  // TypeScript flavour as upstream's does when none is mounted.
  // A service --config describes (services.<name>, e.g. shell's
  // sandboxMode) answers its options from there, undefined when unset;
  // its other members are inert.
  var SERVICE_OPTIONS = { shell: ["sandboxMode"], fs: ["sandboxMode"] };
  var services = g.__dshServices || {};
  var configured = {};
  function configuredService(name) {
    if (configured[name]) { return configured[name]; }
    var opts = isRecord(services[name]) ? services[name] : {};
    var known = SERVICE_OPTIONS[name] || [];
    configured[name] = new Proxy({}, {
      get: function (t, key) {
        if (typeof key === "string" && Object.prototype.hasOwnProperty.call(opts, key)) { return opts[key]; }
        if (known.indexOf(key) >= 0) { return undefined; }
        if (key === "then" || typeof key === "symbol") { return undefined; }
        return inert();
      }
    });
    return configured[name];
  }
  function isConfigured(name) { return SERVICE_OPTIONS[name] !== undefined || isRecord(services[name]); }
  function service(name) {
    if (name === "tools") { return toolsService; }
    if (isConfigured(name)) { return configuredService(name); }
    if (name === "subagents") { return subagentsService; }
    if (name === "agents") { return agentsService; }
    if (name === "jobs") { return jobsService; }
    return name === "codeRuntime" ? undefined : inert();
  }
  // As Cordis: a plugin is a function or an object with apply; its callback
  // is constructed when it has a prototype (a class or a plain function, not
  // an arrow, method, async or generator function), else called without
  // this; config passes its Config schema (standard-schema validate) first.
  var GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
  function callbackOf(plugin) {
    if (typeof plugin === "function") { return plugin; }
    if (plugin !== null && typeof plugin === "object" && typeof plugin.apply === "function") { return plugin.apply; }
    return undefined;
  }
  function isConstructor(fn) { return !!fn.prototype && !(fn instanceof GeneratorFunction); }
  function resolveConfig(plugin, config) {
    var schema = plugin.Config;
    // An uninstalled schemastery is the inert stand-in: nothing to apply.
    if (!schema || inerts.has(schema)) { return config; }
    var std = schema["~standard"];
    if (!std || typeof std.validate !== "function") { return config; }
    var result = std.validate(config);
    if (result !== null && typeof result === "object" && "then" in result) { throw new TypeError("Async config validation is not supported"); }
    if (result.issues) {
      var e = new TypeError("invalid config:\n" + result.issues.map(function (issue) {
        return issue.path ? "  - " + issue.message + " (at " + issue.path.join(".") + ")" : "  - " + issue.message;
      }).join("\n"));
      e.name = "ValidationError";
      throw e;
    }
    return result.value;
  }
  var pending = []; // what async plugin callbacks returned, settled after apply
  function applyPlugin(plugin, config, ctx) {
    var cb = callbackOf(plugin);
    if (cb === undefined) { fail("invalid plugin, expect function or object with an \"apply\" method, received " + (plugin === null ? "null" : typeof plugin)); }
    config = resolveConfig(plugin, config);
    if (isConstructor(cb)) { return new cb(ctx, config); }
    var r = cb(ctx, config);
    if (r !== null && (typeof r === "object" || typeof r === "function") && typeof r.then === "function") { pending.push(r); }
    return undefined;
  }
  // What the host does once the plugins are up and a session starts, for
  // the plugins that register their tools then: a root agent is created
  // (agent/created, with the agent's own ctx), and the subagents service
  // sets up a continuable child (registerContinuableSetup's contributions
  // run on the child's ctx).
  var listeners = [], setups = [];
  var subagentsService = new Proxy({
    registerContinuableSetup: function (contribution) { setups.push(contribution); return disposer(); }
  }, {
    get: function (t, key) { return key in t ? t[key] : inert(); }
  });
  // ctx.jobs knows no job (replay runs none): a finalizer asking for a job's
  // outputLimitBytes (set only by background terminal sends) finds none.
  var jobsService = new Proxy({
    list: function () { return []; },
    get: function () { return undefined; }
  }, {
    get: function (t, key) { return key in t ? t[key] : inert(); }
  });
  // ctx.agents runs what a plugin asks to run outside the current initiator.
  var agentsService = new Proxy({
    withoutInitiator: function (fn) { return fn(); }
  }, {
    get: function (t, key) { return key in t ? t[key] : inert(); }
  });
  function makeAgent() {
    var agent = new Proxy({}, {
      get: function (t, key) {
        if (key === "ctx") { return agentCtx; }
        if (key === "then" || typeof key === "symbol") { return undefined; }
        return inert();
      }
    });
    var agentCtx = makeContext(agent);
    return agent;
  }
  function startSession() {
    listeners.slice().forEach(function (l) {
      if (l.name === "agent/created") { l.fn({ agent: makeAgent() }); }
    });
    setups.slice().forEach(function (setup) { if (typeof setup === "function") { setup(makeAgent().ctx); } });
  }
  var logger = function () { return logger; };
  ["debug", "info", "warn", "error", "success"].forEach(function (k) { logger[k] = noop; });
  function makeContext(agent) {
    var ctx;
    var known = {
      tools: toolsService,
      subagents: subagentsService,
      agents: agentsService,
      jobs: jobsService,
      get: service,
      plugin: function (child, config) { applyPlugin(child, config, makeContext(agent)); return { dispose: noop }; },
      inject: function (deps, fn) { applyPlugin({ inject: deps, apply: fn }, undefined, ctx); return disposer(); },
      effect: function (fn) { var d = typeof fn === "function" ? fn() : undefined; return typeof d === "function" ? d : disposer(); },
      on: function (name, fn) {
        var l = { name: name, fn: fn };
        listeners.push(l);
        return function dispose() { var at = listeners.indexOf(l); if (at >= 0) { listeners.splice(at, 1); } };
      },
      once: disposer,
      off: noop,
      emit: noop,
      parallel: function () { return Promise.resolve(); },
      serial: function () { return Promise.resolve(); },
      logger: logger
    };
    if (agent !== undefined) { known.agent = agent; }
    ctx = new Proxy(known, {
      get: function (t, key) {
        if (key in t) { return t[key]; }
        if (typeof key === "string" && isConfigured(key)) { return configuredService(key); }
        if (typeof key === "string" && touched.indexOf(key) < 0) { touched.push(key); }
        return inert();
      }
    });
    return ctx;
  }
  // The module's plugin as Cordis's loader unwraps it: the default export,
  // else the module. Its declared name ("" when none: the plugin object's,
  // else the module's name export) keys its options.
  function pluginOf(mod) {
    var exp = mod["default"] !== undefined && mod["default"] !== null ? mod["default"] : mod;
    if (exp !== mod && exp.__esModule && exp["default"] !== undefined && exp["default"] !== null) { exp = exp["default"]; }
    return exp;
  }
  g.__dshPluginName = function (mod) {
    var plugin = pluginOf(mod);
    // A function's own name is its identifier, not a plugin name.
    if (plugin && typeof plugin !== "function" && typeof plugin.name === "string") { return plugin.name; }
    return typeof mod.name === "string" ? mod.name : "";
  };
  // __dshApply applies the module's plugin; it returns the ctx members the
  // stand-in does not model that it touched, and the promises an async
  // plugin returned (Go reads their outcome once the jobs have run).
  g.__dshApply = function (mod, config) {
    var plugin = pluginOf(mod);
    if (callbackOf(plugin) === undefined) {
      fail("the module exports no Cordis plugin (a default export, or an apply(ctx, config) export): its " +
        (plugin === mod ? "module" : "default export") + " is " + (plugin === null ? "null" : typeof plugin) +
        ", not a function or an object with an \"apply\" method");
    }
    var instance = applyPlugin(plugin, config, makeContext());
    // The tools package itself: ToolRuntime builds its Code Mode transport
    // (run_code) on first need instead of registering it, and the registry's
    // view appends it; the sandbox asks for it the same way.
    if (instance && typeof instance.requireCodeTransport === "function") { tools.push(instance.requireCodeTransport()); }
    var failures = [];
    var settled = { n: 0 };
    pending.forEach(function (p) {
      p.then(function () { settled.n++; }, function (e) { settled.n++; failures.push(e); });
    });
    startSession();
    // unsettled counts the promises still pending once the jobs have run:
    // with no timers or I/O in the sandbox they never will settle.
    return { touched: touched.join(" "), failures: failures, unsettled: function () { return pending.length - settled.n; } };
  };
  g.__dshTools = tools;
  g.__dshDefined = function (t) { return t[DEFINED] === true; };
  // Code a running harness evaluates (a cordis_define package's host half)
  // reaches these through its sandbox's harness global:
  // harness.registerTool(ctx, harness.defineTool({...})).
  g.harness = {
    defineTool: defineTool,
    registerTool: function registerTool(ctx, tool) {
      if (!isRecord(tool) || tool[DEFINED] !== true) { fail("dynamic tool registration must use a tool returned by harness.defineTool(...)"); }
      return ctx.tools.register(tool);
    }
  };

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
