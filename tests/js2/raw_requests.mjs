// The raw request path the tasks extension's client package (@modelcontextprotocol/ext-tasks)
// asks of its host, shared by the drivers tasks.mjs and task_store.mjs: one request written
// straight to the transport, its one response handed back (the host's tap settles it).

/** The ids of the raw path's requests start so; a tap knows its responses by them. */
export const RAW_ID_PREFIX = "ext-tasks-";

/**
 * The raw request path over `transport`: each request's resolver waits in `pending` under
 * its id until the tap hands it the response; `timeoutMs` unless the request says otherwise,
 * `who` names the driver in the error of a request never answered.
 */
export function rawDispatcher(transport, pending, timeoutMs, who) {
  let next = 0;
  return async (request, options = {}) => {
    next += 1;
    const id = `${RAW_ID_PREFIX}${next}`;
    const timeout = options.context?.requestTimeoutMs ?? timeoutMs;
    let timer;
    const answered = new Promise((resolve, reject) => {
      pending.set(id, resolve);
      timer = setTimeout(() => reject(new Error(`${who}: no answer to ${request.method}`)), timeout);
      options.signal?.addEventListener("abort", () => reject(options.signal.reason), { once: true });
    });
    try {
      await transport.send({ ...request, jsonrpc: "2.0", id });
      const response = await answered;
      return response.error === undefined
        ? { kind: "result", result: response.result }
        : { kind: "error", error: response.error };
    } finally {
      clearTimeout(timer);
      pending.delete(id);
    }
  };
}
