// Drive an MCP stdio server with the official TypeScript SDK client and report what it saw.
//
// Usage: node client.mjs <command> [args...] < script.json
//
// The script is {"calls": [{"name": "add", "arguments": {"a": 2, "b": 3}}, ...]}; "calls" may be
// omitted. The driver connects (initialize + notifications/initialized), lists the tools, makes
// each call in order and prints one JSON report on stdout:
//
//   {"serverVersion", "capabilities", "instructions", "protocolVersion", "tools",
//    "calls": [{"name", "result"} | {"name", "error": {"name", "code", "message", "data"}}]}
//
// With "relist": true it lists the tools again after the calls, and the report also holds
// "toolsAfter" and "listChanged" (the notifications/tools/list_changed it heard).
//
// A call that throws (a JSON-RPC error, a validation failure in the client) is recorded, not
// fatal. Exit status: 0 once connected; 1 on bad usage or a failure to connect or list tools,
// with the error on stderr and a report holding "fatal" on stdout.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { childEnv, describeError, emit, readStdin } from "./common.mjs";

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    process.stderr.write("usage: node client.mjs <command> [args...] < script.json\n");
    return 1;
  }
  const text = await readStdin();
  const script = text.trim() ? JSON.parse(text) : {};
  const calls = script.calls ?? [];

  const env = childEnv();
  const transport = new StdioClientTransport({ command, args, env, stderr: "inherit" });
  // The client tells the transport the negotiated version only if it can take it; record it.
  let protocolVersion = null;
  transport.setProtocolVersion = (version) => {
    protocolVersion = version;
  };
  const client = new Client({ name: "objmcp-ts-tests", version: "0.0.0" });
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged += 1;
  });

  const report = {
    serverVersion: null,
    capabilities: null,
    instructions: null,
    protocolVersion: null,
    tools: null,
    calls: [],
  };
  try {
    await client.connect(transport);
    report.serverVersion = client.getServerVersion() ?? null;
    report.capabilities = client.getServerCapabilities() ?? null;
    report.instructions = client.getInstructions() ?? null;
    report.protocolVersion = protocolVersion;
    report.tools = (await client.listTools()).tools;
  } catch (error) {
    report.fatal = describeError(error);
    process.stderr.write(`client.mjs: could not connect: ${error?.stack ?? error}\n`);
    emit(report);
    await client.close().catch(() => {});
    return 1;
  }

  for (const call of calls) {
    try {
      const result = await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
      report.calls.push({ name: call.name, result });
    } catch (error) {
      report.calls.push({ name: call.name, error: describeError(error) });
    }
  }

  if (script.relist) {
    report.toolsAfter = (await client.listTools()).tools;
    report.listChanged = listChanged;
  }
  await client.close();
  emit(report);
  return 0;
}

process.exitCode = await main();
