import { readFileSync } from 'node:fs';

/** What the tests read of a process's `/proc/<pid>/stat` line. */
export interface ProcStat {
  /** One letter: R, S, D, Z (zombie), … */
  state: string;
  parent: number;
  processGroup: number;
  /** Clock ticks after boot: with the pid, names one process even when the pid is reused. */
  startTime: string;
}

/**
 * A process's state from /proc, or undefined when it has no entry (gone, or no /proc here). The command
 * name in parentheses may itself hold spaces and parentheses, so the fields are counted from the last
 * ')' (proc(5)). exit-with-test-process.cjs keeps its own copy: it is a plain CommonJS preload.
 */
export function procStat(pid: number | 'self'): ProcStat | undefined {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the name, from field 3 (state) on: state, ppid, pgrp, …, starttime (field 22).
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return {
    state: fields[0] ?? '',
    parent: Number(fields[1]),
    processGroup: Number(fields[2]),
    startTime: fields[19] ?? '',
  };
}
