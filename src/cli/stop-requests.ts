import { fstatSync } from 'node:fs'

/**
 * Why `patkit serve` stops: a signal, or its parent went away (stdin closed, or the process was
 * re-parented because its parent died).
 */
type StopReason = NodeJS.Signals | 'stdin closed' | 'parent exited'

/**
 * A pending stop request and how to stop listening for one.
 */
interface StopRequests {
  readonly reason: Promise<StopReason>
  /** Removes the signal handlers, stops reading stdin and polling the parent, so the process can exit. */
  dispose(): void
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/** How often the parent process id is compared with the one at start. */
const PARENT_POLL_MS = 500

// Only a pipe or a socket on stdin is a parent's handle on us: a file, /dev/null (a CI job's stdin,
// `cmd < /dev/null`, a background job of a script) or a terminal ends or stays without meaning that.
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}

/**
 * Resolves with the first reason to stop: SIGINT, SIGTERM or SIGHUP; and with `watchParent`, the end of
 * a piped stdin (a test harness in any language that exits or is killed closes its end of the pipe)
 * or a change of parent process id (the parent died, even by SIGKILL, and the process was re-parented),
 * so a fake authority never outlives the harness that started it.
 */
export function stopRequests(options: { readonly watchParent: boolean }): StopRequests {
  let finish: (reason: StopReason) => void = () => {}
  const reason = new Promise<StopReason>((resolve) => {
    finish = resolve
  })
  const onSignal = (signal: NodeJS.Signals) => finish(signal)
  for (const signal of SIGNALS) process.on(signal, onSignal)
  const cleanups: (() => void)[] = [
    () => {
      for (const signal of SIGNALS) process.off(signal, onSignal)
    },
  ]
  if (options.watchParent) {
    const parent = process.ppid
    const poll = setInterval(() => {
      if (process.ppid !== parent) finish('parent exited')
    }, PARENT_POLL_MS)
    poll.unref()
    cleanups.push(() => clearInterval(poll))
    if (stdinIsPipe()) {
      const onEnd = () => finish('stdin closed')
      // Whatever the parent writes is read and dropped; only the end of the stream matters.
      process.stdin.on('data', () => {})
      process.stdin.once('end', onEnd)
      process.stdin.once('error', onEnd)
      cleanups.push(() => {
        process.stdin.off('end', onEnd)
        process.stdin.destroy()
      })
    }
  }
  return {
    reason,
    dispose: () => {
      for (const cleanup of cleanups.splice(0)) cleanup()
    },
  }
}
