// Drive MCP servers served over Streamable HTTP with the official TypeScript SDK client (its
// StreamableHTTPClientTransport, the handshake era), answering their requests (elicitation,
// sampling) from a script, and report what the client saw, down to each HTTP exchange.
//
// Usage: node http.mjs < script.json
//
// The script is
//
//   {"clients": [{"label": "main", "url": "http://127.0.0.1:PORT/mcp",
//                 "headers": {"Authorization": "Bearer ..."},
//                 "capabilities": {"elicitation": {}, "sampling": {}},
//                 "answers": [{"action": "accept", "content": {...}}, ...],
//                 "samples": [{"model": "m", "role": "assistant", "content": {...}}, ...],
//                 "steps": [{"label": "add", "op": "callTool", "params": {...},
//                            "progress": true}, ...]}, ...]}
//
// The clients run one after the other, each with a transport of its own. "headers" go into the
// transport's requestInit (so onto every request it makes: POST, GET and DELETE). The client
// declares "capabilities" ({} when omitted) and, for each one declared, answers the server's
// requests from the matching list in order: elicitation/create from "answers",
// sampling/createMessage from "samples"; a scripted answer holding "error" is thrown as a
// JSON-RPC error, and a request past the last answer of its list is refused with one.
//
// The client connects (initialize, notifications/initialized; the transport then opens its GET
// stream), then runs the steps in order. An op is
//
//   listTools, ping, listResources, listResourceTemplates, listPrompts
//                                the Client method (listTools with "params" when given);
//   callTool                     Client.callTool("params"), with an onprogress callback when
//                                "progress" is true; with "abortAtProgress": n, the call is
//                                aborted (its AbortSignal, so the SDK sends
//                                notifications/cancelled) when the n-th progress is handed over;
//   setLoggingLevel              Client.setLoggingLevel("params".level);
//   terminateSession             transport.terminateSession() (DELETE); with "params":
//                                {"settle": true}, then a wait of up to SETTLE_MSEC for the GET
//                                streams to end ("openGetStreams" says how many had not);
//   resume                       a new transport and client given the session id the client
//                                had before terminateSession (or has now): the SDK's way back
//                                into a session, connect() sends no initialize; the steps after
//                                it use that client.
//
// A step that throws is recorded, not fatal; a connect that throws is the client's "fatal" and
// its steps are not run. One JSON report goes to stdout, on one line:
//
//   {"clients": {label: {
//      "connected", "fatal": error | null, "protocolVersion", "sessionId",
//      "steps": {label: {"op", "result" | "error", "progress": [...] (callTool), "sessionId",
//                        "openGetStreams" (terminateSession with settle)}},
//      "asked": [{"step", "message", "requestedSchema", "answer"}],
//      "sampled": [{"step", "params", "answer"}],
//      "logs": [{"step", "params"}],
//      "errors": [{"step", "error"}],
//      "closeErrors": [error, ...],
//      "http": [{"step", "method", "sent", "headers", "status", "responseHeaders", "body",
//                "events", "ended", "failed"}]}}}
//
// An error is {"class" (the constructor's name, e.g. StreamableHTTPError or McpError), "name",
// "code", "message", "data"}. "step" is the label of the step running ("connect" while
// connecting). "asked", "sampled" and "logs" are what the SDK handed the handlers (after its
// schemas); "logs" are the notifications/message records. "errors" are what the client reported
// outside any request (client.onerror, which the transport also calls before it throws);
// "closeErrors" those reported while closing the clients at the end (the transport reports its
// aborted GET stream there).
//
// "http" is every HTTP request the transports made, in the order they were made: "sent" is the
// request body parsed (null when none), "headers" the request's mcp-session-id,
// mcp-protocol-version, origin, authorization, accept, content-type and last-event-id (those
// present), "responseHeaders" the response's content-type, mcp-session-id, www-authenticate and
// allow (those present). A response that is an SSE stream has "events" (the JSON-RPC messages of
// its events, parsed, in order) and "ended": "open" while it is, "done" once it ended, or
// "error: <name>" (e.g. AbortError when the client closed it); any other response has "body"
// (its text) and "ended": "done". "failed" is the error of a fetch that threw. The record is
// taken after the steps and before the clients close, so a stream still "open" was open then.
//
// Exit status: 0 once the script ran (whatever the servers answered); 1 on bad usage, with the
// error on stderr.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { describeError, emit, readStdin } from "./common.mjs";

// Generous: a slow, busy machine. Never a measure of speed.
const CALL_TIMEOUT_MSEC = 150_000;
// How long terminateSession waits for the session's GET streams to end.
const SETTLE_MSEC = 300;

const REQUEST_HEADERS = [
  "mcp-session-id",
  "mcp-protocol-version",
  "origin",
  "authorization",
  "accept",
  "content-type",
  "last-event-id",
];
const RESPONSE_HEADERS = ["content-type", "mcp-session-id", "www-authenticate", "allow"];

/** describeError, with the constructor's name (StreamableHTTPError's name is plain "Error"). */
function describe(error) {
  return { class: error?.constructor?.name ?? null, ...describeError(error) };
}

/** The named headers present in `headers`. */
function pick(headers, names) {
  const found = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) {
      found[name] = value;
    }
  }
  return found;
}

function parseBody(body) {
  if (typeof body !== "string") {
    return null;
  }
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Read an SSE body to its end, pushing the data of each event (parsed) onto entry.events,
 * the id of each onto entry.eventIds, and the events without data (priming events: an id
 * and a reconnection delay) onto entry.primings.
 */
async function readEvents(stream, entry) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let data = [];
  let id = null;
  let retry = null;
  const line = (text) => {
    if (text === "") {
      const joined = data.join("\n");
      if (data.length > 0 && joined !== "") {
        entry.eventIds.push(id);
        try {
          entry.events.push(JSON.parse(joined));
        } catch {
          entry.events.push({ unparsed: joined });
        }
      } else if (id !== null || retry !== null) {
        entry.primings.push({ id, retry, position: entry.events.length });
      }
      data = [];
      id = null;
      retry = null;
      return;
    }
    if (text.startsWith(":")) {
      return; // a comment
    }
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) {
      value = value.slice(1);
    }
    if (field === "data") {
      data.push(value);
    } else if (field === "id") {
      id = value;
    } else if (field === "retry") {
      retry = Number(value);
    }
  };
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      buffer += value;
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop();
      lines.forEach(line);
    }
    entry.ended = "done";
  } catch (error) {
    entry.ended = `error: ${error?.name ?? error}`;
  }
}

/** A fetch that records each exchange in `exchanges`, labelled with the step `now()` names. */
function recordingFetch(exchanges, now) {
  return async (url, init = {}) => {
    const entry = {
      step: now(),
      method: init.method ?? "GET",
      sent: parseBody(init.body),
      headers: pick(new Headers(init.headers), REQUEST_HEADERS),
      status: null,
      responseHeaders: null,
      body: null,
      events: null,
      ended: null,
      failed: null,
    };
    exchanges.push(entry);
    let response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      entry.failed = describe(error);
      throw error;
    }
    entry.status = response.status;
    entry.responseHeaders = pick(response.headers, RESPONSE_HEADERS);
    const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type === "text/event-stream" && response.body) {
      // Read one copy here, hand the other to the transport, as it came.
      const [mine, theirs] = response.body.tee();
      entry.events = [];
      entry.eventIds = [];
      entry.primings = [];
      entry.ended = "open";
      readEvents(mine, entry);
      return new Response(theirs, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    entry.body = await response.clone().text();
    entry.ended = "done";
    return response;
  };
}

async function runClient(spec) {
  const out = {
    connected: false,
    fatal: null,
    protocolVersion: null,
    sessionId: null,
    steps: {},
    asked: [],
    sampled: [],
    logs: [],
    errors: [],
    closeErrors: [],
    http: [],
  };
  const exchanges = [];
  let step = "connect";
  let closing = false;
  const capabilities = spec.capabilities ?? {};
  const answers = [...(spec.answers ?? [])];
  const samples = [...(spec.samples ?? [])];
  const fetchFn = recordingFetch(exchanges, () => step);
  const transportOptions = (sessionId) => {
    const options = { fetch: fetchFn, sessionId };
    if (spec.headers !== undefined) {
      options.requestInit = { headers: spec.headers };
    }
    return options;
  };

  /** Record a request from the server in `entries`, answer it with the next of `list`. */
  function answer(entries, list, entry, what) {
    entry.step = step;
    const next = list.shift();
    entry.answer = next ?? null;
    entries.push(entry);
    if (next === undefined) {
      throw new McpError(ErrorCode.InvalidRequest, `http.mjs: no scripted ${what} left`);
    }
    if (next.error !== undefined) {
      throw new McpError(next.error.code ?? ErrorCode.InternalError, next.error.message);
    }
    return structuredClone(next);
  }

  function makeClient() {
    const client = new Client({ name: "objmcp-ts-http", version: "0.0.0" }, { capabilities });
    client.onerror = (error) => {
      if (closing) {
        out.closeErrors.push(describe(error));
      } else {
        out.errors.push({ step, error: describe(error) });
      }
    };
    if (capabilities.elicitation !== undefined) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        const { message, requestedSchema } = request.params;
        const entry = { message, requestedSchema: requestedSchema ?? null };
        return answer(out.asked, answers, entry, "answer");
      });
    }
    if (capabilities.sampling !== undefined) {
      client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        return answer(out.sampled, samples, { params: request.params }, "sample");
      });
    }
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      out.logs.push({ step, params: notification.params });
    });
    return client;
  }

  let transport = new StreamableHTTPClientTransport(new URL(spec.url), transportOptions());
  let client = makeClient();
  const clients = [client];
  try {
    await client.connect(transport);
    out.connected = true;
    out.protocolVersion = transport.protocolVersion ?? null;
    out.sessionId = transport.sessionId ?? null;
  } catch (error) {
    out.fatal = describe(error);
  }

  let ended = null; // the session id terminateSession ended
  for (const made of out.connected ? (spec.steps ?? []) : []) {
    step = made.label;
    const entry = { op: made.op };
    try {
      switch (made.op) {
        case "listTools":
          entry.result = await client.listTools(made.params);
          break;
        case "ping":
          entry.result = await client.ping();
          break;
        case "listResources":
          entry.result = await client.listResources();
          break;
        case "listResourceTemplates":
          entry.result = await client.listResourceTemplates();
          break;
        case "listPrompts":
          entry.result = await client.listPrompts();
          break;
        case "setLoggingLevel":
          entry.result = await client.setLoggingLevel(made.params.level);
          break;
        case "callTool": {
          const options = { timeout: CALL_TIMEOUT_MSEC };
          const abort = new AbortController();
          options.signal = abort.signal;
          entry.progress = [];
          if (made.progress) {
            options.onprogress = (progress) => {
              entry.progress.push(progress);
              if (entry.progress.length === made.abortAtProgress) {
                abort.abort("http.mjs: cancelled");
              }
            };
          }
          entry.result = await client.callTool(made.params, undefined, options);
          break;
        }
        case "terminateSession": {
          ended = transport.sessionId ?? null;
          await transport.terminateSession();
          entry.result = null;
          if (made.params?.settle) {
            const streams = () =>
              exchanges.filter((e) => e.method === "GET" && e.ended === "open").length;
            const deadline = Date.now() + SETTLE_MSEC;
            while (streams() > 0 && Date.now() < deadline) {
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
            entry.openGetStreams = streams();
          }
          break;
        }
        case "resume": {
          const sessionId = ended ?? transport.sessionId;
          transport = new StreamableHTTPClientTransport(
            new URL(spec.url),
            transportOptions(sessionId),
          );
          client = makeClient();
          clients.push(client);
          await client.connect(transport);
          entry.result = { sessionId: transport.sessionId ?? null };
          break;
        }
        default:
          throw new Error(`http.mjs: unknown op ${made.op}`);
      }
    } catch (error) {
      entry.error = describe(error);
    }
    // Let notifications already dispatched reach their handlers before the next step.
    await new Promise((resolve) => setImmediate(resolve));
    entry.sessionId = transport.sessionId ?? null;
    out.steps[made.label] = entry;
  }

  step = null;
  out.http = structuredClone(exchanges);
  closing = true;
  for (const each of clients) {
    await each.close();
  }
  return out;
}

async function main() {
  const text = await readStdin();
  const script = text.trim() ? JSON.parse(text) : {};
  if (!Array.isArray(script.clients)) {
    process.stderr.write('usage: node http.mjs < script.json (a {"clients": [...]} script)\n');
    return 1;
  }
  const report = { clients: {} };
  for (const spec of script.clients) {
    report.clients[spec.label] = await runClient(spec);
  }
  emit(report);
  return 0;
}

process.exitCode = await main();
