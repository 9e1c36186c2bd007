// Preloaded (--require) into every server process a test starts, and inherited by its cluster workers.
// The test process that started the server may die without running its clean-up (a vitest worker that
// aborts, a run killed mid-way): then nothing would ever stop the server, which sits in a process group
// of its own. Each process checks twice a second that the test process is still there, and ends itself
// at once when it is not. (A worker does not watch its primary here: the server's own answer to a dead
// primary is what web-concurrency.test.ts proves, and this must not do that job for it.)
//
// "Still there" is read from /proc, not with kill(pid, 0): that also succeeds for a test process that
// died and was not yet reaped (a zombie), and for an unrelated process given its pid later. The test
// process's start time comes from the test process itself (JALSA_TEST_PROCESS_STARTED), so a worker
// forked after its pid was reused does not take the newcomer for it.
const { readFileSync } = require('node:fs');

const testPid = Number(process.env.JALSA_TEST_PROCESS_PID);
const testStartedAt = process.env.JALSA_TEST_PROCESS_STARTED;

/** 'gone' (no such process, or a zombie), the start time (clock ticks since boot), or 'unknown'. */
function startTimeOf(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    // Only a missing entry means gone: a failed read under load (EMFILE) must not end a healthy server.
    return error.code === 'ENOENT' || error.code === 'ESRCH' ? 'gone' : 'unknown';
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[0] === 'Z' || fields[0] === 'X' ? 'gone' : fields[19];
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function testProcessGone() {
  if (!testStartedAt) return !alive(testPid); // no /proc where the test process ran
  const now = startTimeOf(testPid);
  return now !== 'unknown' && now !== testStartedAt;
}

if (testPid > 0) {
  if (testProcessGone()) process.kill(process.pid, 'SIGKILL');
  setInterval(() => {
    if (testProcessGone()) process.kill(process.pid, 'SIGKILL');
  }, 500).unref();
}
