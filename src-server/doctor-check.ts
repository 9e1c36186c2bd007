/** One line of `npm run doctor`'s report, from the SQLite or the PostgreSQL checks alike. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  /** Allowed, but not what a site that sells tickets wants (no money taken, no mail delivered). */
  warning?: string;
}
