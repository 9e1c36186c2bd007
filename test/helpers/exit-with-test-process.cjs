// Preloaded (--require) into every server process a test starts, and inherited by its cluster workers.
// The test process that started the server may die without running its clean-up (a vitest worker that
// aborts, a run killed mid-way): then nothing would ever stop the server, which sits in a process group
// of its own. Each process checks twice a second that the test process is still there, and ends itself
// at once when it is not. (A worker does not watch its primary here: the server's own answer to a dead
// primary is what web-concurrency.test.ts proves, and this must not do that job for it.)
//
// "Still there" is read from /proc, not with kill(pid, 0): that also succeeds for a test process that
// died and was not yet reaped (a zombie), and for an unrelated process that was given its pid later.
const { readFileSync } = require('node:fs');

const testPid = Number(process.env.JALSA_TEST_PROCESS_PID);

/** The process's start time (in clock ticks since boot), or undefined when it is gone or a zombie. */
function startTimeOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

if (testPid > 0) {
  const hasProc = startTimeOf(process.pid) !== undefined;
  const testStartedAt = hasProc ? startTimeOf(testPid) : undefined;
  const testStillThere = () => (hasProc ? startTimeOf(testPid) === testStartedAt : alive(testPid));
  // A worker forked (or replaced) after the test process died finds it gone already.
  if (hasProc && testStartedAt === undefined) process.kill(process.pid, 'SIGKILL');
  setInterval(() => {
    if (!testStillThere()) process.kill(process.pid, 'SIGKILL');
  }, 500).unref();
}
