// Drive objmcp's tests/servers/jobs.py with the official TypeScript SDK client's experimental
// tasks (2025-11-25's core tasks: client.experimental.tasks) and report what it saw.
//
// Usage: node tasks.mjs stdio <python> <jobs.py>     (spawns <python> -m objmcp run <jobs.py>:Jobs)
//        node tasks.mjs http <url>                    (a server already running)
//
// Steps: the capabilities and the tools' taskSupport; a task streamed to its end
// (callToolStream); one through a question (the elicitation handler answers while tasks/result
// waits); one cancelled (cancelTask, then getTask and listTasks); a call to a "required" tool
// without a task (the client refuses it). Prints one JSON report: {"steps": {name: outcome}},
// an outcome {"error": {...}} when the step threw. Exit status 0 once connected.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateTaskResultSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { childEnv, describeError, emit } from "./common.mjs";

const asked = []; // the questions the elicitation handler answered

function textOf(result) {
  return (result?.content ?? []).map((block) => block.text ?? "").join("");
}

/** Every message of a task-augmented call's stream, summed up. */
async function streamed(client, name, args) {
  const kinds = [];
  const statuses = [];
  let text = null;
  let error = null;
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) {
    kinds.push(message.type);
    if (message.type === "taskStatus") statuses.push(message.task.status);
    if (message.type === "result") text = textOf(message.result);
    if (message.type === "error") error = message.error.message;
  }
  return { kinds, statuses, text, error };
}

const steps = {
  async capabilities(client) {
    const { tools } = await client.listTools(); // caches which tools are tasks
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? null]));
    return { tasks: client.getServerCapabilities()?.tasks ?? null, support };
  },
  async toTheEnd(client) {
    return streamed(client, "slow", { seconds: 0.5 });
  },
  async throughAQuestion(client) {
    return { ...(await streamed(client, "ask_name", {})), asked };
  },
  async cancelled(client) {
    const created = await client.request(
      { method: "tools/call", params: { name: "blocking", arguments: { seconds: 10 }, task: {} } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const answered = await client.experimental.tasks.cancelTask(taskId);
    const later = await client.experimental.tasks.getTask(taskId);
    const listed = await client.experimental.tasks.listTasks();
    return {
      answered: answered.status,
      later: later.status,
      listed: listed.tasks.some((task) => task.taskId === taskId),
    };
  },
  async requiredWithoutTask(client) {
    try {
      await client.callTool({ name: "always", arguments: {} });
      return { refused: false };
    } catch (error) {
      return { refused: true, message: error.message };
    }
  },
  async requiredStreamed(client) {
    return streamed(client, "always", {});
  },
};

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  const transport =
    mode === "stdio"
      ? new StdioClientTransport({
          command: args[0],
          args: ["-m", "objmcp", "run", `${args[1]}:Jobs`],
          env: childEnv(),
          stderr: "inherit",
        })
      : new StreamableHTTPClientTransport(new URL(args[0]));
  const client = new Client(
    { name: "objmcp-ts-tasks", version: "0.0.0" },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: "accept", content: { value: "Ada" } };
  });
  await client.connect(transport);
  const report = { steps: {} };
  for (const [name, step] of Object.entries(steps)) {
    try {
      report.steps[name] = await step(client);
    } catch (error) {
      report.steps[name] = { error: describeError(error) };
    }
  }
  await client.close();
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
