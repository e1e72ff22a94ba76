// Drive two fronts of one objmcp deployment that share a task store in Redis (--tasks redis://…)
// with the official TypeScript SDK client's experimental tasks (2025-11-25's core tasks:
// client.experimental.tasks), and report what it saw.
//
// Usage: node task_store.mjs < script.json, the script being
//
//   {"front": URL, "other": URL, "token": TOKEN, "marker": PATH}
//
// Two clients, one on each front, whose requests carry the same bearer token (the same caller:
// a 2025-11-25 task is its caller's). Each task is made through the front (a tools/call with
// params.task) and followed through the other: polled to its end (getTask) and its result
// fetched (getTaskResult) and listed (listTasks); fetched while it still runs (tasks/result
// waits for its end); cancelled (cancelTask) once the tool noted its start in the file at
// "marker". Prints one JSON report: {"steps": {name: outcome}}, an outcome {"error": {...}}
// when the step threw. Exit status 0 once both clients connected.

import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describeError, emit, readStdin } from "./common.mjs";

// Generous: a slow, busy machine. Never a measure of speed.
const STEP_TIMEOUT_MSEC = 30_000;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** A connected client of `url`, every request carrying the bearer `token`. */
async function connect(url, token) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "objmcp-ts-task-store", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

/** The task a tools/call with params.task made through `client`. */
async function made(client, name, args) {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: args, task: {} } },
    CreateTaskResultSchema,
  );
  return created.task;
}

function resultOf(result) {
  return {
    structured: result.structuredContent ?? null,
    isError: result.isError ?? false,
    meta: result._meta ?? null,
  };
}

const steps = {
  async followed(front, other) {
    const created = await made(front, "slow_pid", { seconds: 1.0 });
    const taskId = created.taskId;
    const statuses = [];
    const deadline = Date.now() + STEP_TIMEOUT_MSEC;
    for (;;) {
      const task = await other.experimental.tasks.getTask(taskId);
      statuses.push(task.status);
      if (TERMINAL.has(task.status) || Date.now() > deadline) break;
      await sleep(task.pollInterval ?? 100);
    }
    const result = await other.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    const listed = await other.experimental.tasks.listTasks();
    return {
      taskId,
      created: created.status,
      statuses,
      result: resultOf(result),
      listed: listed.tasks.map((task) => task.taskId),
    };
  },
  async waited(front, other) {
    const created = await made(front, "slow_pid", { seconds: 0.5 });
    const result = await other.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
    const after = await other.experimental.tasks.getTask(created.taskId);
    return { taskId: created.taskId, result: resultOf(result), after: after.status };
  },
  async cancelled(front, other, marker) {
    const created = await made(front, "until_cancelled", { marker });
    const deadline = Date.now() + STEP_TIMEOUT_MSEC;
    while (!existsSync(marker)) {
      if (Date.now() > deadline) throw new Error(`task_store.mjs: ${marker} never appeared`);
      await sleep(50);
    }
    const answered = await other.experimental.tasks.cancelTask(created.taskId);
    const later = await front.experimental.tasks.getTask(created.taskId);
    return { taskId: created.taskId, answered: answered.status, later: later.status };
  },
};

async function main() {
  const script = JSON.parse(await readStdin());
  const front = await connect(script.front, script.token);
  const other = await connect(script.other, script.token);
  const report = { steps: {} };
  for (const [name, step] of Object.entries(steps)) {
    try {
      report.steps[name] = await step(front, other, script.marker);
    } catch (error) {
      report.steps[name] = { error: describeError(error) };
    }
  }
  await front.close();
  await other.close();
  emit(report);
  return 0;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
