// What the drivers share: reading the script, describing errors, the child's environment.

/** Read all of stdin as text. */
export async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON-friendly description of a thrown value. */
export function describeError(error) {
  if (error instanceof Error) {
    return {
      name: error.name,
      code: typeof error.code === "number" ? error.code : null,
      message: error.message,
      data: error.data ?? null,
    };
  }
  return { name: typeof error, code: null, message: String(error), data: null };
}

/** Print the one JSON report. */
export function emit(report) {
  process.stdout.write(JSON.stringify(report) + "\n");
}

/** The SDK hands the child only HOME, LOGNAME, PATH, SHELL, TERM and USER; add PYTHONPATH. */
export function childEnv() {
  const env = {};
  if (process.env.PYTHONPATH !== undefined) {
    env.PYTHONPATH = process.env.PYTHONPATH;
  }
  return env;
}
