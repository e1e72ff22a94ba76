// Drive two fronts of one objmcp deployment that share a task store in Redis (--tasks redis://…)
// with the official TypeScript MCP client 2.x (@modelcontextprotocol/client) and the tasks
// extension's client package (@modelcontextprotocol/ext-tasks), in 2026-07-28, and report what
// the package saw.
//
// Usage: node task_store.mjs < script.json, the script being
//
//   {"front": URL, "other": URL, "token": TOKEN,
//    "steps": [{"label": "slow", "tool": "slow_pid", "arguments": {...}, "cancel": false}, ...]}
//
// Two clients, one on each front, whose requests carry the same bearer token, each with a task
// session of its own (createTaskSessionFromClient) of the same endpointId. A step calls its tool
// through the front's session (session.callTool); the call answered as a task, the front's
// session hands it off (its reference kept, nothing polled there), and the other's session takes
// it up (session.resumeTask) and settles it, through the other front only: polled to its end
// (tasks/get), or, with "cancel": true, cancelled first (execution.cancel(): tasks/cancel). One
// JSON report goes to stdout:
//
//   {"steps": {label: {"kind", "taskId", "events": [status, ...],
//                      "outcome": {"status", "result" | "error"}, "after": status | null}
//                     | {"error"}},
//    "sent": {"front": [method, ...], "other": [method, ...]}, "errors": [error, ...]}
//
// "sent" is every request each client wrote to its transport (the package's raw path too).
//
// On a server that declares the extension the package needs the host's raw request path, which
// the SDK Client does not offer (its codecs take no `resultType: "task"`): as in tasks.mjs, the
// request is written to the client's own transport under an id of its own and its answer taken
// off the transport before the Client sees it.
//
// Exit status: 0 once the script ran (whatever the servers answered); 1 otherwise, with the
// error on stderr.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import { rawDispatcher } from "./raw_requests.mjs";

// Generous: a slow, busy machine. Never a measure of speed.
const REQUEST_TIMEOUT_MSEC = 30_000;
const MODERN = "2026-07-28";
const CLIENT_INFO = { name: "objmcp-ts2-task-store", version: "0.0.0" };
const ENDPOINT = "the-deployment";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function describe(error) {
  if (error instanceof Error) {
    return {
      class: error.constructor?.name ?? null,
      code: typeof error.code === "number" ? error.code : (error.code ?? null),
      message: error.message,
    };
  }
  return { class: null, code: null, message: String(error) };
}

/**
 * Note each request written to `transport` in `sent`, and give the raw path its answers: a
 * response to one of its ids settles that request and never reaches the Client.
 */
function tap(transport, sent, pending) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (typeof message?.method === "string" && Object.hasOwn(message, "id")) {
      sent.push(message.method);
    }
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

/** A connected client of `url` (its requests carrying the bearer `token`) and its task session. */
async function connect(url, token, sent, errors) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const pending = new Map();
  tap(transport, sent, pending);
  const client = new Client(CLIENT_INFO, {
    capabilities: {},
    versionNegotiation: { mode: { pin: MODERN } },
  });
  client.onerror = (error) => errors.push(describe(error));
  await client.connect(transport, { timeout: REQUEST_TIMEOUT_MSEC });
  const session = createTaskSessionFromClient(client, {
    endpointId: ENDPOINT,
    rawDispatch: rawDispatcher(transport, pending, REQUEST_TIMEOUT_MSEC, "task_store.mjs"),
    v2RequestFraming: {
      protocolVersion: client.getNegotiatedProtocolVersion(),
      clientInfo: CLIENT_INFO,
      clientCapabilities: {},
    },
    onError: (error) => errors.push(describe(error)),
  });
  return { client, session };
}

function outcomeOf(outcome) {
  if (outcome.status === "completed") {
    return { status: "completed", result: outcome.result };
  }
  if (outcome.status === "failed") {
    return { status: "failed", error: describe(outcome.error) };
  }
  return { status: outcome.status };
}

async function runStep(front, other, made) {
  const entry = { kind: null, taskId: null, events: [], outcome: null, after: null };
  const options = { requestTimeoutMs: REQUEST_TIMEOUT_MSEC };
  const called = await front.session.callTool(made.tool, made.arguments ?? {}, {
    ...options,
    task: { preference: "allow" },
  });
  entry.kind = called.kind;
  if (called.kind !== "task") {
    return entry;
  }
  entry.taskId = called.handle.taskId;
  let reference;
  await called.handoff((kept) => {
    reference = kept;
  });
  const resumed = await other.session.resumeTask(reference, options);
  if (made.cancel) {
    await resumed.cancel();
  }
  const { outcome } = await resumed.settle({
    onEvent: (event) => {
      if (event.type === "task") entry.events.push(event.task.status);
    },
  });
  entry.outcome = outcomeOf(outcome);
  entry.after = (await other.session.task(entry.taskId).snapshot())?.status ?? null;
  return entry;
}

async function main() {
  const script = JSON.parse(await readStdin());
  const report = { steps: {}, sent: { front: [], other: [] }, errors: [] };
  const front = await connect(script.front, script.token, report.sent.front, report.errors);
  const other = await connect(script.other, script.token, report.sent.other, report.errors);
  for (const made of script.steps) {
    try {
      report.steps[made.label] = await runStep(front, other, made);
    } catch (error) {
      report.steps[made.label] = { error: describe(error) };
    }
  }
  for (const { client, session } of [front, other]) {
    await session.close().catch(() => {});
    await client.close().catch(() => {});
  }
  process.stdout.write(JSON.stringify(report) + "\n");
  return 0;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
