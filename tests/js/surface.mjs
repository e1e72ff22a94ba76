// Drive one or more MCP stdio servers with the official TypeScript SDK client through the
// "surface" methods (tools, resources, prompts, completions, pagination, subscriptions) and report
// what the SDK handed back, and what the servers told the clients unasked (notifications).
//
// Usage: node surface.mjs < script.json
//
// The script is
//
//   {"servers": {"zoo": {"command": "python", "args": ["zoo.py"]}, "paged": {...}, ...},
//    "steps": [{"label": "origin", "server": "zoo", "op": "callTool",
//               "params": {"name": "origin", "arguments": {}}}, ...]}
//
// One client per server connects (initialize + notifications/initialized, through the SDK's
// StdioClientTransport), all at once; then the steps run in order, each on its server's client.
// An op is a method of the SDK's Client, called with "params": listTools, callTool,
// listResources, listResourceTemplates, readResource, subscribeResource, unsubscribeResource,
// listPrompts, getPrompt, complete; or "ping" (Client.ping, no params); or "pages", which calls
// the Client method named by "method" (listTools when omitted) with no cursor and then with each
// nextCursor it is given until there is none (at most "limit" calls, 100 when omitted), recording
// every page. A server may also say "listChanged": a list of "tools", "resources", "prompts":
// its client is then made with the SDK's own `listChanged` option for those lists
// (autoRefresh false, debounceMs 0), whose onChanged callbacks are recorded (see below) in place
// of this driver's own handlers for those lists' notifications. One JSON report goes to stdout:
//
//   {"servers": {name: {"protocolVersion", "serverVersion", "capabilities"}},
//    "errors": [{"server", "error"}],
//    "steps": {label: {"server", "op", "result" | "error": {"name", "code", "message", "data"},
//                      "validator", "decoded", "pages", "exhausted",
//                      "notifications", "listChanged"}},
//    "notifications": [{"server", "step", "method", "params"}],
//    "listChanged": [{"server", "step", "list"}],
//    "events": [{"server", "step", "direction", "kind", "id", "method", "params", "error"}]}
//
// "validator" (callTool only) says whether the client held an output-schema validator for the
// tool when it called it (it caches one per tool with an outputSchema on listTools, and then
// checks each structuredContent against it, throwing when it does not fit). "decoded" (callTool
// and readResource) has one entry per content block or contents item: for each base64 payload
// ("data" of an image or audio block, "blob" of an embedded resource or of a resource's
// contents) {"hex": the bytes Node decoded, "canonical": whether encoding them again gives the
// same text}, else null. "pages" (pages only) holds each page's result, "exhausted" whether the
// loop hit "limit" with a cursor still to follow. A step that throws is recorded, not fatal;
// errors the clients report outside any request (client.onerror) are collected in "errors".
//
// Notifications, two views:
//
// - "notifications" (top level) lists, in the order the SDK dispatched them, the notifications
//   each client's handlers were given: tools/list_changed, resources/list_changed,
//   prompts/list_changed and resources/updated through client.setNotificationHandler with the
//   SDK's own schemas (so "params" is what its schema parsed; one that fails the schema is an
//   entry in "errors", not here), any other method through client.fallbackNotificationHandler.
//   The lists a server's "listChanged" names are left to the SDK's own handlers instead, which
//   it installs only for the lists the server declared listChanged for at initialize: a
//   notification for another of them finds no handler but the fallback, and is recorded here.
//   "step" is the label of the step running when the handler ran (null: none was, e.g. during
//   connect or after the last step). Each step's own "notifications" are the same entries for
//   that step (without "server" and "step"). "listChanged" is the same for the SDK's listChanged
//   callbacks: {"list": "tools" | "resources" | "prompts"}.
// - "events" is the wire, in order, for all clients: every JSON-RPC message the transport
//   handed the client ("direction": "in") and every one the client sent ("out"), as it
//   happened, with the step running then ("step", null outside steps). "kind" is "request",
//   "notification" or "response"; requests and responses carry "id", requests and
//   notifications "method", notifications "params", responses "error" (the JSON-RPC error code,
//   or null for a result). Within one server, a notification event between a step's request
//   and its response arrived on the pipe before that response.
//
// A handler runs a microtask after the transport hands its message over, so a notification that
// arrived before a step's response is always dispatched before that step ends; one arriving just
// after it may be dispatched either side of the step's end. "events" has no such slack.
//
// Exit status: 0 once every server is connected; 1 on bad usage or a failure to connect, with
// the error on stderr and a report holding "fatal" on stdout.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { childEnv, describeError, emit, readStdin } from "./common.mjs";

// Generous: a slow, busy machine. Never a measure of speed.
const REQUEST_TIMEOUT_MSEC = 150_000;

const OPS = new Set([
  "listTools",
  "callTool",
  "listResources",
  "listResourceTemplates",
  "readResource",
  "subscribeResource",
  "unsubscribeResource",
  "listPrompts",
  "getPrompt",
  "complete",
  "ping",
]);

// The notifications recorded through the SDK's schemas, by the list whose change each announces
// (null: no list; resources/updated).
const NOTIFICATIONS = [
  [ToolListChangedNotificationSchema, "tools"],
  [ResourceListChangedNotificationSchema, "resources"],
  [PromptListChangedNotificationSchema, "prompts"],
  [ResourceUpdatedNotificationSchema, null],
];
const LISTS = new Set(["tools", "resources", "prompts"]);

// The label of the step running now, or null.
let running = null;

/** The bytes of a base64 payload as Node decodes them, and whether the text was canonical. */
function decode(text) {
  if (typeof text !== "string") {
    return null;
  }
  const bytes = Buffer.from(text, "base64");
  return { hex: bytes.toString("hex"), canonical: bytes.toString("base64") === text };
}

/** The decoded payload of a tool result's content block, or null. */
function decodeBlock(block) {
  if (block?.type === "image" || block?.type === "audio") {
    return decode(block.data);
  }
  if (block?.type === "resource") {
    return decode(block.resource?.blob);
  }
  return null;
}

/** The wire event of one JSON-RPC message a client received or sent. */
function wireEvent(name, direction, message) {
  const event = { server: name, step: running, direction };
  if (typeof message?.method === "string") {
    if (Object.hasOwn(message, "id")) {
      Object.assign(event, { kind: "request", id: message.id, method: message.method });
    } else {
      Object.assign(event, {
        kind: "notification",
        method: message.method,
        params: message.params ?? null,
      });
    }
  } else {
    const error = message?.error;
    event.kind = "response";
    event.id = message?.id ?? null;
    event.error = error === undefined ? null : (error?.code ?? null);
  }
  return event;
}

/** Connect a client to one server; returns it with what the handshake told it. */
async function connect(name, server, report) {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args ?? [],
    env: childEnv(),
    stderr: "inherit",
  });
  // The client tells the transport the negotiated version only if it can take it; record it.
  let protocolVersion = null;
  transport.setProtocolVersion = (version) => {
    protocolVersion = version;
  };
  // The wire, both ways. The client chains its own onmessage after one already set.
  transport.onmessage = (message) => {
    report.events.push(wireEvent(name, "in", message));
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    report.events.push(wireEvent(name, "out", message));
    return send(message, options);
  };

  const sdkLists = new Set(server.listChanged ?? []);
  const listChanged = {};
  for (const list of sdkLists) {
    listChanged[list] = {
      autoRefresh: false,
      debounceMs: 0,
      onChanged: () => {
        report.listChanged.push({ server: name, step: running, list });
      },
    };
  }
  const client = new Client(
    { name: "objmcp-ts-surface", version: "0.0.0" },
    sdkLists.size > 0 ? { listChanged } : undefined,
  );
  client.onerror = (error) => {
    report.errors.push({ server: name, error: describeError(error) });
  };
  const heard = (notification) => {
    report.notifications.push({
      server: name,
      step: running,
      method: notification.method,
      params: notification.params ?? null,
    });
  };
  for (const [schema, list] of NOTIFICATIONS) {
    if (!sdkLists.has(list)) {
      client.setNotificationHandler(schema, heard);
    }
  }
  client.fallbackNotificationHandler = async (notification) => heard(notification);
  await client.connect(transport);
  report.servers[name] = {
    protocolVersion,
    serverVersion: client.getServerVersion() ?? null,
    capabilities: client.getServerCapabilities() ?? null,
  };
  return client;
}

/** What is wrong with a step of the script, or null. */
function problemOf(step, servers, labels) {
  if (typeof step.label !== "string" || labels.has(step.label)) {
    return "needs a label of its own";
  }
  if (!Object.hasOwn(servers, step.server)) {
    return `names no server ${JSON.stringify(step.server)}`;
  }
  if (step.op === "pages") {
    const method = step.method ?? "listTools";
    return OPS.has(method) && method.startsWith("list") ? null : `pages ${method}, no list`;
  }
  return OPS.has(step.op) ? null : `has an unknown op ${JSON.stringify(step.op)}`;
}

/** What is wrong with a server of the script, or null. */
function serverProblemOf(server) {
  const lists = server?.listChanged ?? [];
  if (!Array.isArray(lists) || !lists.every((list) => LISTS.has(list))) {
    return `has a "listChanged" that is not a list of ${[...LISTS].join(", ")}`;
  }
  return null;
}

async function runStep(client, step) {
  const options = { timeout: REQUEST_TIMEOUT_MSEC };
  const entry = { server: step.server, op: step.op };
  if (step.op === "pages") {
    const method = step.method ?? "listTools";
    const limit = step.limit ?? 100;
    entry.pages = [];
    entry.exhausted = false;
    let cursor;
    try {
      for (;;) {
        if (entry.pages.length >= limit) {
          entry.exhausted = true;
          break;
        }
        const params = cursor === undefined ? step.params : { ...step.params, cursor };
        const page = await client[method](params, options);
        entry.pages.push(page);
        cursor = page.nextCursor;
        if (cursor === undefined) {
          break;
        }
      }
    } catch (error) {
      entry.error = describeError(error);
    }
    return entry;
  }
  if (step.op === "callTool") {
    entry.validator = client.getToolOutputValidator(step.params?.name) !== undefined;
  }
  try {
    let result;
    if (step.op === "callTool") {
      result = await client.callTool(step.params, undefined, options);
    } else if (step.op === "ping") {
      result = await client.ping(options);
    } else {
      result = await client[step.op](step.params, options);
    }
    entry.result = result;
    if (step.op === "callTool") {
      entry.decoded = (result.content ?? []).map(decodeBlock);
    } else if (step.op === "readResource") {
      entry.decoded = (result.contents ?? []).map((item) => decode(item.blob));
    }
  } catch (error) {
    entry.error = describeError(error);
  }
  return entry;
}

async function main() {
  const text = await readStdin();
  const script = text.trim() ? JSON.parse(text) : {};
  const servers = script.servers ?? {};
  const steps = script.steps ?? [];
  if (Object.keys(servers).length === 0) {
    process.stderr.write("usage: node surface.mjs < script.json (with at least one server)\n");
    return 1;
  }

  for (const [name, server] of Object.entries(servers)) {
    const problem = serverProblemOf(server);
    if (problem !== null) {
      process.stderr.write(`surface.mjs: server ${JSON.stringify(name)} ${problem}\n`);
      return 1;
    }
  }
  const labels = new Set();
  for (const step of steps) {
    const problem = problemOf(step, servers, labels);
    if (problem !== null) {
      process.stderr.write(`surface.mjs: step ${JSON.stringify(step.label)} ${problem}\n`);
      return 1;
    }
    labels.add(step.label);
  }

  const report = {
    servers: {},
    errors: [],
    steps: {},
    notifications: [],
    listChanged: [],
    events: [],
  };
  const names = Object.keys(servers);
  const settled = await Promise.allSettled(
    names.map((name) => connect(name, servers[name], report)),
  );
  const clients = {};
  settled.forEach((outcome, index) => {
    if (outcome.status === "fulfilled") {
      clients[names[index]] = outcome.value;
    }
  });
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed !== undefined) {
    const reason = failed.reason;
    report.fatal = describeError(reason);
    process.stderr.write(`surface.mjs: could not connect: ${reason?.stack ?? reason}\n`);
    emit(report);
    await Promise.all(Object.values(clients).map((client) => client.close().catch(() => {})));
    return 1;
  }

  for (const step of steps) {
    running = step.label;
    const entry = await runStep(clients[step.server], step);
    running = null;
    // What the handlers were given while the step ran (see the header on when that is).
    entry.notifications = report.notifications
      .filter((heard) => heard.step === step.label)
      .map(({ method, params }) => ({ method, params }));
    entry.listChanged = report.listChanged
      .filter((heard) => heard.step === step.label)
      .map(({ list }) => list);
    report.steps[step.label] = entry;
  }

  await Promise.all(Object.values(clients).map((client) => client.close()));
  emit(report);
  return 0;
}

process.exitCode = await main();
