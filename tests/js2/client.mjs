// Drive objmcp servers with the official TypeScript MCP client 2.x (@modelcontextprotocol/client)
// in one era, over stdio or Streamable HTTP, and report what the client saw.
//
// Usage: node client.mjs < script.json
//
// The script is
//
//   {"mode": "modern" | "legacy",
//    "clients": [{"label": "asking",
//                 "server": {"command": "python", "args": [...]} | {"url": "http://127.0.0.1:.../mcp"},
//                 "capabilities": {"elicitation": {}, "sampling": {}},
//                 "answers": [{"action": "accept", "content": {...}}, ...],
//                 "samples": [{"model": "m", "role": "assistant", "content": {...}}, ...],
//                 "listChanged": true,
//                 "steps": [{"label": "add", "op": "callTool", "params": {...}}, ...]}, ...]}
//
// "mode" is the client's era: "modern" pins 2026-07-28 (versionNegotiation {pin}: the connect
// is a server/discover, every request carries its revision and capabilities in _meta, and a
// question comes back as an input_required result that the client fulfils through its handlers
// and retries), "legacy" is the 2.x default (the initialize handshake, questions as requests
// from the server). The clients run one after the other, each with a transport of its own: a
// StdioClientTransport spawning "command" with "args", or a StreamableHTTPClientTransport to
// "url". A client declares "capabilities" ({} when omitted) and answers elicitation/create from
// "answers" and sampling/createMessage from "samples", in order, for each one declared (past the
// last answer of its list, the handler throws). With "listChanged": true the client is made with
// the SDK's own listChanged option for tools (autoRefresh, no debounce): on a legacy connection
// it handles notifications/tools/list_changed, on a modern one it opens a subscriptions/listen
// stream at connect; each onChanged is recorded in "toolsChanged".
//
// An op is a Client method called with "params": listTools, callTool, listResources,
// listResourceTemplates, readResource, listPrompts, getPrompt; "ping"; or "toolsChanged", which
// waits (up to WAIT_MSEC) until the listChanged callback has run "params".count times in all.
// The list verbs bypass the client's response cache, so each lists afresh. A step that throws is
// recorded, not fatal; a connect that throws is the client's "fatal" and its steps are not run.
// One JSON report goes to stdout, on one line:
//
//   {"clients": {label: {
//      "connected", "fatal": error | null, "era", "protocolVersion", "serverVersion",
//      "capabilities", "instructions",
//      "steps": {label: {"op", "result" | "error"}},
//      "asked": [{"step", "message", "requestedSchema", "answer"}],
//      "sampled": [{"step", "params", "answer"}],
//      "toolsChanged": [{"step", "error", "names"}],
//      "notifications": [{"step", "method", "params"}],
//      "errors": [{"step", "error"}],
//      "wire": [{"step", "direction", "kind", "id", "method", "error", "resultType"}],
//      "http": [{"step", "method", "rpc", "status"}]}}}
//
// An error is {"class", "name", "code", "message", "data"}. "step" is the label of the step
// running ("connect" while connecting, null after the last step). "notifications" are those no
// other handler took (the client's fallbackNotificationHandler). "wire" is every JSON-RPC message
// the transport handed the client ("in") and the client handed the transport ("out"): "kind" is
// request, notification or response; "resultType" is a result's resultType (input_required for a
// question in the modern era), "error" an error's code. "http" (Streamable HTTP only) is every
// HTTP request the transport made: its method, the JSON-RPC method it carried (null: none, or
// a response) and the response's status.
//
// Exit status: 0 once the script ran (whatever the servers answered); 1 on bad usage, with the
// error on stderr.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

// Generous: a slow, busy machine. Never a measure of speed.
const REQUEST_TIMEOUT_MSEC = 150_000;
const WAIT_MSEC = 60_000;
const MODERN = "2026-07-28";

const LISTS = new Set([
  "listTools",
  "listResources",
  "listResourceTemplates",
  "listPrompts",
]);
const OPS = new Set([...LISTS, "callTool", "readResource", "getPrompt", "ping", "toolsChanged"]);

/** Read all of stdin as text. */
async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON-friendly description of a thrown value. */
function describe(error) {
  if (error instanceof Error) {
    return {
      class: error.constructor?.name ?? null,
      name: error.name,
      code: typeof error.code === "number" ? error.code : (error.code ?? null),
      message: error.message,
      data: error.data ?? null,
    };
  }
  return { class: null, name: typeof error, code: null, message: String(error), data: null };
}

/** The SDK hands a stdio child only a few safe variables; add PYTHONPATH. */
function childEnv() {
  const env = {};
  for (const name of ["PATH", "HOME", "PYTHONPATH"]) {
    if (process.env[name] !== undefined) {
      env[name] = process.env[name];
    }
  }
  return env;
}

/** The wire event of one JSON-RPC message. */
function wireEvent(step, direction, message) {
  const event = { step, direction };
  if (typeof message?.method === "string") {
    event.kind = Object.hasOwn(message, "id") ? "request" : "notification";
    event.id = message.id ?? null;
    event.method = message.method;
  } else {
    event.kind = "response";
    event.id = message?.id ?? null;
    event.error = message?.error?.code ?? null;
    event.resultType = message?.result?.resultType ?? null;
  }
  return event;
}

/** Record every message through `transport`, both ways, in `wire`. */
function tap(transport, wire, now) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.push(wireEvent(now(), "out", message));
    return send(message, options);
  };
  // The client sets onmessage when it connects (again on a reconnect): wrap whatever it sets.
  let handler;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (value) => {
      handler =
        value === undefined
          ? undefined
          : (message, extra) => {
              wire.push(wireEvent(now(), "in", message));
              return value(message, extra);
            };
    },
  });
}

/** A fetch that records each HTTP exchange's method, JSON-RPC method and status in `http`. */
function recordingFetch(http, now) {
  return async (url, init = {}) => {
    let sent = null;
    try {
      sent = typeof init.body === "string" ? JSON.parse(init.body) : null;
    } catch {
      sent = null;
    }
    const entry = { step: now(), method: init.method ?? "GET", rpc: sent?.method ?? null };
    http.push(entry);
    const response = await fetch(url, init);
    entry.status = response.status;
    return response;
  };
}

function makeTransport(server, http, now) {
  if (typeof server?.url === "string") {
    return new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: recordingFetch(http, now),
    });
  }
  return new StdioClientTransport({
    command: server.command,
    args: server.args ?? [],
    env: childEnv(),
    stderr: "inherit",
  });
}

async function runStep(client, made, out) {
  const options = { timeout: REQUEST_TIMEOUT_MSEC };
  switch (made.op) {
    case "callTool":
      return client.callTool(made.params, options);
    case "ping":
      return client.ping(options);
    case "readResource":
      return client.readResource(made.params, { ...options, cacheMode: "bypass" });
    case "getPrompt":
      return client.getPrompt(made.params, options);
    case "toolsChanged": {
      const count = made.params?.count ?? 1;
      const deadline = Date.now() + WAIT_MSEC;
      while (out.toolsChanged.length < count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return { count: out.toolsChanged.length };
    }
    default:
      return client[made.op](made.params, { ...options, cacheMode: "bypass" });
  }
}

async function runClient(spec, mode) {
  const out = {
    connected: false,
    fatal: null,
    era: null,
    protocolVersion: null,
    serverVersion: null,
    capabilities: null,
    instructions: null,
    steps: {},
    asked: [],
    sampled: [],
    toolsChanged: [],
    notifications: [],
    errors: [],
    wire: [],
    http: [],
  };
  let step = "connect";
  const capabilities = spec.capabilities ?? {};
  const answers = [...(spec.answers ?? [])];
  const samples = [...(spec.samples ?? [])];

  const options = { capabilities };
  if (mode === "modern") {
    options.versionNegotiation = { mode: { pin: MODERN } };
  }
  if (spec.listChanged) {
    options.listChanged = {
      tools: {
        autoRefresh: true,
        debounceMs: 0,
        onChanged: (error, tools) => {
          out.toolsChanged.push({
            step,
            error: error === null ? null : describe(error),
            names: tools === null ? null : tools.map((tool) => tool.name),
          });
        },
      },
    };
  }
  const client = new Client({ name: "objmcp-ts2-tests", version: "0.0.0" }, options);
  client.onerror = (error) => {
    out.errors.push({ step, error: describe(error) });
  };
  client.fallbackNotificationHandler = async (notification) => {
    out.notifications.push({ step, method: notification.method, params: notification.params ?? null });
  };

  /** Record a question in `entries` and answer it with the next of `list`. */
  function answer(entries, list, entry, what) {
    entry.step = step;
    const next = list.shift();
    entry.answer = next ?? null;
    entries.push(entry);
    if (next === undefined) {
      throw new Error(`client.mjs: no scripted ${what} left`);
    }
    return structuredClone(next);
  }
  if (capabilities.elicitation !== undefined) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const { message, requestedSchema } = request.params;
      const entry = { message, requestedSchema: requestedSchema ?? null };
      return answer(out.asked, answers, entry, "answer");
    });
  }
  if (capabilities.sampling !== undefined) {
    client.setRequestHandler("sampling/createMessage", async (request) =>
      answer(out.sampled, samples, { params: request.params }, "sample"),
    );
  }

  const transport = makeTransport(spec.server, out.http, () => step);
  tap(transport, out.wire, () => step);
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MSEC });
    out.connected = true;
    out.era = client.getProtocolEra() ?? null;
    out.protocolVersion = client.getNegotiatedProtocolVersion() ?? null;
    out.serverVersion = client.getServerVersion() ?? null;
    out.capabilities = client.getServerCapabilities() ?? null;
    out.instructions = client.getInstructions() ?? null;
  } catch (error) {
    out.fatal = describe(error);
  }

  for (const made of out.connected ? (spec.steps ?? []) : []) {
    step = made.label;
    const entry = { op: made.op };
    try {
      entry.result = await runStep(client, made, out);
    } catch (error) {
      entry.error = describe(error);
    }
    out.steps[made.label] = entry;
  }
  step = null;
  await client.close().catch(() => {});
  return out;
}

/** What is wrong with the script, or null. */
function problemOf(script) {
  if (script.mode !== "modern" && script.mode !== "legacy") {
    return 'needs "mode": "modern" or "legacy"';
  }
  const labels = new Set();
  for (const spec of script.clients ?? []) {
    if (typeof spec.label !== "string" || labels.has(spec.label)) {
      return "needs a label of its own for each client";
    }
    labels.add(spec.label);
    const steps = new Set();
    for (const made of spec.steps ?? []) {
      if (typeof made.label !== "string" || steps.has(made.label)) {
        return `client ${spec.label}: needs a label of its own for each step`;
      }
      steps.add(made.label);
      if (!OPS.has(made.op)) {
        return `client ${spec.label}: unknown op ${JSON.stringify(made.op)}`;
      }
    }
  }
  return null;
}

async function main() {
  const text = await readStdin();
  const script = text.trim() ? JSON.parse(text) : {};
  const problem = problemOf(script);
  if (problem !== null) {
    process.stderr.write(`usage: node client.mjs < script.json; the script ${problem}\n`);
    return 1;
  }
  const report = { clients: {} };
  for (const spec of script.clients ?? []) {
    report.clients[spec.label] = await runClient(spec, script.mode);
  }
  process.stdout.write(JSON.stringify(report) + "\n");
  return 0;
}

process.exitCode = await main();
