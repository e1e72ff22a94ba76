// Drive one or more MCP stdio servers with the official TypeScript SDK client through the
// "surface" methods (tools, resources, prompts, completions, pagination) and report what the
// SDK handed back.
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
// listResources, listResourceTemplates, readResource, listPrompts, getPrompt, complete; or
// "pages", which calls the Client method named by "method" (listTools when omitted) with no
// cursor and then with each nextCursor it is given until there is none (at most "limit" calls,
// 100 when omitted), recording every page. One JSON report goes to stdout:
//
//   {"servers": {name: {"protocolVersion", "serverVersion", "capabilities"}},
//    "errors": [{"server", "error"}],
//    "steps": {label: {"server", "op", "result" | "error": {"name", "code", "message", "data"},
//                      "validator", "decoded", "pages", "exhausted"}}}
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
// Exit status: 0 once every server is connected; 1 on bad usage or a failure to connect, with
// the error on stderr and a report holding "fatal" on stdout.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { childEnv, describeError, emit, readStdin } from "./common.mjs";

// Generous: a slow, busy machine. Never a measure of speed.
const REQUEST_TIMEOUT_MSEC = 150_000;

const OPS = new Set([
  "listTools",
  "callTool",
  "listResources",
  "listResourceTemplates",
  "readResource",
  "listPrompts",
  "getPrompt",
  "complete",
]);

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
  const client = new Client({ name: "objmcp-ts-surface", version: "0.0.0" });
  client.onerror = (error) => {
    report.errors.push({ server: name, error: describeError(error) });
  };
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
    const result =
      step.op === "callTool"
        ? await client.callTool(step.params, undefined, options)
        : await client[step.op](step.params, options);
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

  const labels = new Set();
  for (const step of steps) {
    const problem = problemOf(step, servers, labels);
    if (problem !== null) {
      process.stderr.write(`surface.mjs: step ${JSON.stringify(step.label)} ${problem}\n`);
      return 1;
    }
    labels.add(step.label);
  }

  const report = { servers: {}, errors: [], steps: {} };
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
    report.steps[step.label] = await runStep(clients[step.server], step);
  }

  await Promise.all(Object.values(clients).map((client) => client.close()));
  emit(report);
  return 0;
}

process.exitCode = await main();
