// Shared by the host's main thread and its workers: the per-call state word each worker
// publishes in shared memory, and the failure line written on a worker's behalf.
//
// Slot channel lines, server -> worker: `<lease> <timeoutMs> <harness request JSON>` or
// `<lease> release`; worker -> server: the harness reply JSON, or a failureLine().
export const IDLE = 0;
export const BUSY = 1; // a call is running; its deadline is published
export const REPLYING = 2; // the worker is writing its reply
export const KILLED = 3; // the host took the call over (deadline or crash) and answers it

/** A failure the harness itself could not report (timeout kill, crash, broken runtime). */
export function failureLine(code, message, terminated, retryable = false) {
  return JSON.stringify({ host_error: { code, message, retryable }, terminated });
}
