// Preloaded (--require) into every server process a test starts, and inherited by its cluster workers.
// The test process that started the server may die without running its clean-up (a vitest worker that
// aborts, a run killed mid-way): then nothing would ever stop the server, which sits in a process group
// of its own. Each process checks twice a second that the test process is still there, and ends itself
// at once when it is not.
const testPid = Number(process.env.JALSA_TEST_PROCESS_PID);
if (testPid > 0) {
  setInterval(() => {
    try {
      process.kill(testPid, 0);
    } catch {
      process.kill(process.pid, 'SIGKILL');
    }
  }, 500).unref();
}
