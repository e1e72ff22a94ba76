// Drive an MCP stdio server with the official TypeScript SDK client, answering its questions
// (elicitation) from a script and recording progress notifications; report what it saw.
//
// Usage: node interactive.mjs <command> [args...] < script.json
//
// The script is
//
//   {"answers": [{"action": "accept", "content": {...}} | {"action": "decline"} | ...,
//                {"error": {"code": -32600, "message": "..."}}, ...],
//    "calls": [{"name": "ask", "arguments": {...}, "progress": true}, ...],
//    "noElicitation": false}
//
// Every key may be omitted. Unless "noElicitation" is true the client declares the elicitation
// capability and answers each elicitation/create request with the next scripted answer (an
// answer holding "error" is thrown as a JSON-RPC error instead); a request past the last answer
// is refused with a JSON-RPC error. The calls are made in order; a call with "progress": true
// asks for progress notifications and records them twice:
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
//    "asked": [{"message", "requestedSchema", "mode", "answer"}],
//    "calls": [{"name", "result" | "error": {"name", "code", "message", "data"},
//               "progress": [...], "wireProgress": [...], "lateProgress": [...]}]}
//
// A call that throws is recorded, not fatal. Exit status: 0 once connected; 1 on bad usage or a
// failure to connect, with the error on stderr and a report holding "fatal" on stdout.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { childEnv, describeError, emit, readStdin } from "./common.mjs";
import { ElicitRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

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
  const answers = [...(script.answers ?? [])];
  const calls = script.calls ?? [];
  const elicitation = !script.noElicitation;

  const env = childEnv();
  const transport = new StdioClientTransport({ command, args, env, stderr: "inherit" });
  let protocolVersion = null;
  transport.setProtocolVersion = (version) => {
    protocolVersion = version;
  };
  const capabilities = elicitation ? { elicitation: {} } : {};
  const client = new Client({ name: "objmcp-ts-interactive", version: "0.0.0" }, { capabilities });

  const report = { protocolVersion: null, errors: [], asked: [], calls: [] };
  client.onerror = (error) => {
    report.errors.push(describeError(error));
  };

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

  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const { message, requestedSchema, mode } = request.params;
      const entry = { message, requestedSchema: requestedSchema ?? null, mode: mode ?? null };
      report.asked.push(entry);
      const answer = answers.shift();
      entry.answer = answer ?? null;
      if (answer === undefined) {
        throw new McpError(ErrorCode.InvalidRequest, "interactive.mjs: no scripted answer left");
      }
      if (answer.error !== undefined) {
        throw new McpError(answer.error.code ?? ErrorCode.InternalError, answer.error.message);
      }
      const result = { action: answer.action };
      if (answer.content !== undefined) {
        result.content = answer.content;
      }
      return result;
    });
  }

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

  for (const call of calls) {
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
  }

  await client.close();
  emit(report);
  return 0;
}

process.exitCode = await main();
