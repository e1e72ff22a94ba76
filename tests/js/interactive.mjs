// Drive an MCP stdio server with the official TypeScript SDK client, answering its requests
// (elicitation, sampling, roots) from a script and recording progress notifications and
// elicitation-complete notifications; report what it saw.
//
// Usage: node interactive.mjs <command> [args...] < script.json
//
// The script is
//
//   {"capabilities": {"elicitation": {}, "sampling": {}, "roots": {}, ...},
//    "answers": [{"action": "accept", "content": {...}} | {"action": "decline"} | ...],
//    "samples": [{"model": "m", "role": "assistant", "content": {...}, "stopReason": "endTurn"}],
//    "roots": [{"roots": [{"uri": "file:///...", "name": "..."}]}],
//    "calls": [{"name": "ask", "arguments": {...}, "progress": true}, ...]}
//
// Every key may be omitted. The client declares "capabilities" ({"elicitation": {}} when
// omitted: form elicitation only) and, for each one declared, answers the server's requests
// from the matching list in order: elicitation/create from "answers" (form and URL mode alike),
// sampling/createMessage from "samples", roots/list from "roots"; each scripted answer is the
// result to send, except that one holding "error" is thrown as a JSON-RPC error instead. A
// request past the last answer of its list is refused with a JSON-RPC error. The calls are made
// in order; a call with "progress": true asks for progress notifications and records them twice:
//
//   "progress"      what the SDK handed to the call's onprogress callback;
//   "wireProgress"  every notifications/progress for the call's token that reached the client
//                   before the call's response, in arrival order (read off the transport);
//   "lateProgress"  the same, arriving after the response (a server should send none).
//
// The two can differ: SDK 1.32.2 handles a response at once but a notification a microtask
// later, so progress that arrives in the same chunk as the response finds its handler gone and
// is dropped with an "unknown token" error (typescript-sdk#2580). Errors the client reports
// outside any call (client.onerror) are collected in "errors". One JSON report goes to stdout:
//
//   {"protocolVersion", "errors": [...],
//    "asked": [{"call", "message", "requestedSchema", "mode", "url", "elicitationId", "wire",
//               "answer"}],
//    "sampled": [{"call", "params", "wire", "answer"}],
//    "listedRoots": [{"call", "params", "wire", "answer"}],
//    "completed": [{"call", "params"}],
//    "calls": [{"name", "result" | "error": {"name", "code", "message", "data"},
//               "progress": [...], "wireProgress": [...], "lateProgress": [...]}]}
//
// For each request the server made: "call" is the index of the call in flight (null if none);
// "params" (and the elicitation fields) are what the SDK handed the handler, after its schema
// dropped what it does not know; "wire" the params exactly as they came off the transport;
// "answer" the scripted answer used (null if none was left). "completed" holds each
// notifications/elicitation/complete as the SDK handed it over, in arrival order.
//
// A call that throws is recorded, not fatal. Exit status: 0 once connected; 1 on bad usage or a
// failure to connect, with the error on stderr and a report holding "fatal" on stdout.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { childEnv, describeError, emit, readStdin } from "./common.mjs";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";

// Generous: a slow, busy machine. Never a measure of speed.
const CALL_TIMEOUT_MSEC = 150_000;

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    process.stderr.write("usage: node interactive.mjs <command> [args...] < script.json\n");
    return 1;
  }
  const text = await readStdin();
  const script = text.trim() ? JSON.parse(text) : {};
  const calls = script.calls ?? [];
  const capabilities = script.capabilities ?? { elicitation: {} };

  const env = childEnv();
  const transport = new StdioClientTransport({ command, args, env, stderr: "inherit" });
  let protocolVersion = null;
  transport.setProtocolVersion = (version) => {
    protocolVersion = version;
  };
  const client = new Client({ name: "objmcp-ts-interactive", version: "0.0.0" }, { capabilities });

  const report = {
    protocolVersion: null,
    errors: [],
    asked: [],
    sampled: [],
    listedRoots: [],
    completed: [],
    calls: [],
  };
  client.onerror = (error) => {
    report.errors.push(describeError(error));
  };

  // The index of the call in flight, for the requests and notifications the server sends.
  let inFlight = null;
  // The params of each request from the server as it came off the transport, by request id.
  const wireParams = new Map();
  // The call in flight: its request id and progress token (from what the client sends) and the
  // progress notifications for that token seen on the transport.
  let current = null;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (current !== null && message.method === "tools/call" && current.requestId === null) {
      current.requestId = message.id;
      current.token = message.params?._meta?.progressToken ?? null;
    }
    return send(message, options);
  };
  /** Note a message as it comes off the transport, before the client dispatches it. */
  function observe(message) {
    if (message.method !== undefined && message.id !== undefined) {
      wireParams.set(message.id, structuredClone(message.params ?? null));
    }
    if (current === null || current.requestId === null) {
      return;
    }
    if (message.method === "notifications/progress") {
      const { progressToken, ...params } = message.params ?? {};
      if (current.token !== null && progressToken === current.token) {
        (current.responded ? current.late : current.wire).push(params);
      }
    } else if (message.method === undefined && message.id === current.requestId) {
      current.responded = true;
    }
  }

  /**
   * Record a request from the server in `entries` and answer it with the next of `answers`: the
   * result to send, or a JSON-RPC error for one holding "error" or when none is left.
   */
  function answer(entries, answers, entry, extra, what) {
    entry.call = inFlight;
    entry.wire = wireParams.get(extra.requestId) ?? null;
    wireParams.delete(extra.requestId);
    entries.push(entry);
    const next = answers.shift();
    entry.answer = next ?? null;
    if (next === undefined) {
      throw new McpError(ErrorCode.InvalidRequest, `interactive.mjs: no scripted ${what} left`);
    }
    if (next.error !== undefined) {
      throw new McpError(next.error.code ?? ErrorCode.InternalError, next.error.message);
    }
    return structuredClone(next);
  }

  if (capabilities.elicitation !== undefined) {
    const answers = [...(script.answers ?? [])];
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const { message, requestedSchema, mode, url, elicitationId } = request.params;
      const entry = {
        message,
        requestedSchema: requestedSchema ?? null,
        mode: mode ?? null,
        url: url ?? null,
        elicitationId: elicitationId ?? null,
      };
      return answer(report.asked, answers, entry, extra, "answer");
    });
  }
  if (capabilities.sampling !== undefined) {
    const samples = [...(script.samples ?? [])];
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const entry = { params: request.params };
      return answer(report.sampled, samples, entry, extra, "sample");
    });
  }
  if (capabilities.roots !== undefined) {
    const roots = [...(script.roots ?? [])];
    client.setRequestHandler(ListRootsRequestSchema, async (request, extra) => {
      const entry = { params: request.params ?? null };
      return answer(report.listedRoots, roots, entry, extra, "roots");
    });
  }
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    report.completed.push({ call: inFlight, params: notification.params });
  });

  try {
    await client.connect(transport);
    report.protocolVersion = protocolVersion;
    // Connecting installed the client's handler; look at each message before it does.
    const dispatch = transport.onmessage;
    transport.onmessage = (message, extra) => {
      observe(message);
      dispatch(message, extra);
    };
  } catch (error) {
    report.fatal = describeError(error);
    process.stderr.write(`interactive.mjs: could not connect: ${error?.stack ?? error}\n`);
    emit(report);
    await client.close().catch(() => {});
    return 1;
  }

  for (const [index, call] of calls.entries()) {
    inFlight = index;
    const progress = [];
    current = { requestId: null, token: null, responded: false, wire: [], late: [] };
    const options = { timeout: CALL_TIMEOUT_MSEC };
    if (call.progress) {
      options.onprogress = (notification) => {
        progress.push(notification);
      };
    }
    try {
      const result = await client.callTool(
        { name: call.name, arguments: call.arguments ?? {} },
        undefined,
        options,
      );
      report.calls.push({ name: call.name, result, progress });
    } catch (error) {
      report.calls.push({ name: call.name, error: describeError(error), progress });
    }
    // Let notifications already dispatched reach their handlers before reading the records.
    await new Promise((resolve) => setImmediate(resolve));
    const entry = report.calls[report.calls.length - 1];
    entry.wireProgress = current.wire;
    entry.lateProgress = current.late;
    current = null;
    inFlight = null;
  }

  await client.close();
  emit(report);
  return 0;
}

process.exitCode = await main();
