// Drive objmcp's tasks with the official TypeScript MCP client 2.x (@modelcontextprotocol/client)
// and the tasks extension's own client package (@modelcontextprotocol/ext-tasks), over stdio or
// Streamable HTTP, and report what the package saw.
//
// Usage: node tasks.mjs < script.json
//
// The script is
//
//   {"clients": [{"label": "modern",
//                 "mode": "modern" | "legacy",
//                 "endpoint": "jobs",
//                 "server": {"command": "python", "args": [...]} | {"url": "http://127.0.0.1:.../mcp"},
//                 "capabilities": {"elicitation": {}},
//                 "answers": [{"action": "accept", "content": {...}}, ...],
//                 "samples": [{"model": "m", "role": "assistant", "content": {...}}, ...],
//                 "steps": [{"label": "slow", "tool": "slow", "arguments": {...},
//                            "preference": "allow", "cancel": false, "handoff": false}
//                           | {"label": "again", "resume": "slow"}, ...]}, ...]}
//
// Each client connects a Client in its era ("modern" pins 2026-07-28, "legacy" is the 2.x
// default handshake) with "capabilities", then makes one task session of it with ext-tasks'
// createTaskSessionFromClient. On a server that declares the extension (the session's
// generation "v2") the package needs the host's raw request path, which the SDK Client does
// not offer (its codecs take no `resultType: "task"`): this driver's rawDispatch writes the
// request to the client's own transport under an id of its own and takes the answer off the
// transport before the Client sees it; v2RequestFraming is the client's revision, info and
// capabilities, which the package puts in each such request's _meta.
//
// A step is one session.callTool(tool, arguments, {task: {preference}}) settled to its end.
// With "cancel": true, a call answered as a task is cancelled (execution.cancel()) as soon as
// it is one, then settled; with "handoff": true, handed off as soon as it is one (its
// reference kept, the local execution released, the task left running) and not settled. A
// "resume" step resumes the task a handoff step (of any client before) kept, with
// session.resumeTask, and settles it: the client's "endpoint" (its label when omitted) is its
// session's endpointId, which the reference must match. Questions reach the session's
// onInputRequest, which answers an elicitation with the next of "answers" and a sampling
// request with the next of "samples" (past the last of its list, it throws). One JSON report
// goes to stdout:
//
//   {"clients": {label: {
//      "connected", "fatal": error | null, "era", "capabilities", "taskCapabilities",
//      "steps": {label: {"kind", "taskId", "events": [{"status", "statusMessage"}],
//                        "outcome": {"status", "result" | "error"}, "after": task view | null}
//                       | {"error"}},
//      "asked": [{"step", "kind", "params", "scope", "delivery", "taskId", "inputId", "answer"}],
//      "errors": [{"step", "error"}],
//      "wire": [{"step", "direction", "kind", "id", "method", "error", "resultType", "status"}]}}}
//
// "taskCapabilities" is what the session made of the server's (its `capabilities`). "after" is
// the task as tasks/get tells it once the step ended (a task's steps only).
// "wire" is every JSON-RPC message through the transport, the raw path's too: "status" is a
// task's status in a response (a tasks/get result, or a call answered as a task).
//
// Exit status: 0 once the script ran (whatever the servers answered); 1 on bad usage, with the
// error on stderr.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import { rawDispatcher } from "./raw_requests.mjs";

// Generous: a slow, busy machine. Never a measure of speed.
const REQUEST_TIMEOUT_MSEC = 150_000;
const MODERN = "2026-07-28";
const CLIENT_INFO = { name: "objmcp-ts2-tasks-tests", version: "0.0.0" };
// Ids of the raw path, apart from the Client's own (numbers).

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
      cause: error.cause === undefined ? null : describe(error.cause),
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
    event.status = message?.result?.status ?? null;
  }
  return event;
}

function makeTransport(server) {
  if (typeof server?.url === "string") {
    return new StreamableHTTPClientTransport(new URL(server.url));
  }
  return new StdioClientTransport({
    command: server.command,
    args: server.args ?? [],
    env: childEnv(),
    stderr: "inherit",
  });
}

/**
 * Record every message through `transport` in `wire`, and give the raw path its answers: a
 * response to one of its ids settles that request and never reaches the Client.
 */
function tap(transport, wire, now, pending) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.push(wireEvent(now(), "out", message));
    return send(message, options);
  };
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
              const waiting = typeof message?.method === "string" ? undefined : pending.get(message?.id);
              if (waiting !== undefined) {
                pending.delete(message.id);
                waiting(message);
                return undefined;
              }
              return value(message, extra);
            };
    },
  });
}

/** A task view as the report keeps it. */
function viewOf(task) {
  return task === undefined || task === null
    ? null
    : { taskId: task.taskId, status: task.status, statusMessage: task.statusMessage ?? null };
}

/** An outcome as the report keeps it. */
function outcomeOf(outcome) {
  if (outcome.status === "completed") {
    return { status: "completed", result: outcome.result };
  }
  if (outcome.status === "failed") {
    return { status: "failed", error: describe(outcome.error) };
  }
  return { status: outcome.status };
}

async function runStep(session, made, references) {
  const entry = { kind: null, taskId: null, events: [], outcome: null, after: null };
  const execution =
    made.resume === undefined
      ? await session.callTool(made.tool, made.arguments ?? {}, {
          task: { preference: made.preference ?? "allow" },
          requestTimeoutMs: REQUEST_TIMEOUT_MSEC,
        })
      : await session.resumeTask(references.get(made.resume), {
          requestTimeoutMs: REQUEST_TIMEOUT_MSEC,
        });
  entry.kind = execution.kind;
  if (execution.kind === "task") {
    entry.taskId = execution.handle.taskId;
    if (made.handoff) {
      await execution.handoff((reference) => {
        references.set(made.label, reference);
      });
      return entry;
    }
    if (made.cancel) {
      await execution.cancel();
    }
  }
  const { outcome } = await execution.settle({
    onEvent: (event) => {
      if (event.type === "task") {
        const view = viewOf(event.task);
        entry.events.push({ status: view.status, statusMessage: view.statusMessage });
      }
    },
  });
  entry.outcome = outcomeOf(outcome);
  if (execution.kind === "task") {
    entry.after = viewOf(await session.task(entry.taskId).snapshot());
  }
  return entry;
}

async function runClient(spec, references) {
  const out = {
    connected: false,
    fatal: null,
    era: null,
    capabilities: null,
    taskCapabilities: null,
    steps: {},
    asked: [],
    errors: [],
    wire: [],
  };
  let step = "connect";
  const capabilities = spec.capabilities ?? {};
  const answers = [...(spec.answers ?? [])];
  const samples = [...(spec.samples ?? [])];
  const options = { capabilities };
  if (spec.mode === "modern") {
    options.versionNegotiation = { mode: { pin: MODERN } };
  }
  const client = new Client(CLIENT_INFO, options);
  let closing = false;
  client.onerror = (error) => {
    // Closing aborts the transport's requests still open (the legacy era's GET stream over
    // HTTP): not an error of the run.
    if (closing && error?.name === "AbortError") {
      return;
    }
    out.errors.push({ step, error: describe(error) });
  };
  const pending = new Map();
  const transport = makeTransport(spec.server);
  tap(transport, out.wire, () => step, pending);
  let session = null;
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MSEC });
    out.connected = true;
    out.era = client.getProtocolEra() ?? null;
    out.capabilities = client.getServerCapabilities() ?? null;
    session = createTaskSessionFromClient(client, {
      endpointId: spec.endpoint ?? spec.label,
      rawDispatch: rawDispatcher(transport, pending, REQUEST_TIMEOUT_MSEC, "tasks.mjs"),
      v2RequestFraming: {
        protocolVersion: client.getNegotiatedProtocolVersion(),
        clientInfo: CLIENT_INFO,
        clientCapabilities: capabilities,
      },
      onInputRequest: async (request, context) => {
        const next = (request.kind === "sampling" ? samples : answers).shift();
        out.asked.push({
          step,
          kind: request.kind,
          params: request.params ?? null,
          scope: context.scope,
          delivery: context.delivery,
          taskId: context.taskId ?? null,
          inputId: context.inputId ?? null,
          answer: next ?? null,
        });
        if (next === undefined) {
          throw new Error("tasks.mjs: no scripted answer left");
        }
        return structuredClone(next);
      },
      onError: (error) => {
        out.errors.push({ step, error: describe(error) });
      },
    });
    out.taskCapabilities = session.capabilities;
  } catch (error) {
    out.fatal = describe(error);
  }

  for (const made of session === null ? [] : (spec.steps ?? [])) {
    step = made.label;
    try {
      out.steps[made.label] = await runStep(session, made, references);
    } catch (error) {
      out.steps[made.label] = { error: describe(error) };
    }
  }
  step = null;
  closing = true;
  await session?.close().catch(() => {});
  await client.close().catch(() => {});
  return out;
}

/** What is wrong with the script, or null. */
function problemOf(script) {
  const labels = new Set();
  for (const spec of script.clients ?? []) {
    if (typeof spec.label !== "string" || labels.has(spec.label)) {
      return "needs a label of its own for each client";
    }
    labels.add(spec.label);
    if (spec.mode !== "modern" && spec.mode !== "legacy") {
      return `client ${spec.label}: needs "mode": "modern" or "legacy"`;
    }
    const steps = new Set();
    for (const made of spec.steps ?? []) {
      if (typeof made.label !== "string" || steps.has(made.label)) {
        return `client ${spec.label}: needs a label of its own for each step`;
      }
      steps.add(made.label);
      if ((typeof made.tool === "string") === (typeof made.resume === "string")) {
        return `client ${spec.label}: step ${made.label} needs a "tool" or a "resume"`;
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
    process.stderr.write(`usage: node tasks.mjs < script.json; the script ${problem}\n`);
    return 1;
  }
  const report = { clients: {} };
  const references = new Map();
  for (const spec of script.clients ?? []) {
    report.clients[spec.label] = await runClient(spec, references);
  }
  process.stdout.write(JSON.stringify(report) + "\n");
  return 0;
}

process.exitCode = await main();
