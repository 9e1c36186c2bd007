import { accessSync, constants, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { EnvFields, EnvSchema, issueLines, readDotEnvInto } from './env.ts';
import { paymentSetupProblem } from './services/payments/gateway-of.ts';

/**
 * Everything that stops this configuration from serving, each as one line an operator can act on, all
 * at once: a production start that lacks its URL, payment keys and mail provider says so in one message
 * instead of failing on the first and leaving the next two for later starts. Empty when it can start.
 */
export function startupProblems(source: NodeJS.ProcessEnv = process.env): string[] {
  readDotEnvInto(source);
  const fields = EnvFields.safeParse(source);
  if (!fields.success) return issueLines(fields.error).map((line) => line.trim());
  const env = fields.data;
  const production = env.NODE_ENV === 'production';
  // The rules EnvSchema adds to the fields (PUBLIC_URL in production, settings that go together), each
  // on its own line: the rules `loadEnv` enforces, written once in env.ts.
  const refined = EnvSchema.safeParse(source);
  return [
    ...(refined.success ? [] : issueLines(refined.error).map((line) => line.trim())),
    production ? paymentSetupProblem(env) : null,
    production && !env.RESEND_API_KEY && !env.ALLOW_FILE_MAILBOX
      ? 'RESEND_API_KEY: set it (and MAIL_FROM, a verified sender) so buyers get their confirmations, tickets and password resets, or ALLOW_FILE_MAILBOX=true to keep mail in DATA_DIR/mail, where nobody receives it.'
      : null,
    dataDirProblem(env.DATA_DIR),
  ].filter((problem): problem is string => problem !== null);
}

/** The start-up message for `problems`, or null when there are none. */
export function startupMessage(problems: string[]): string | null {
  if (problems.length === 0) return null;
  return [
    `Jalsa cannot start: ${problems.length === 1 ? 'one setting needs' : `${problems.length} settings need`} attention (.env.example lists every setting; README "Run it for real").`,
    ...problems.map((problem) => `  - ${problem}`),
  ].join('\n');
}

function dataDirProblem(dataDir: string): string | null {
  const folder = path.resolve(dataDir);
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.R_OK | constants.W_OK);
    return null;
  } catch (err) {
    const { username, uid } = userInfo();
    const reason = (err as NodeJS.ErrnoException).code ?? 'error';
    return `DATA_DIR: ${folder} cannot be created or written by user ${username} (uid ${uid}) (${reason}); make that user its owner (chown -R ${uid} ${folder}) or point DATA_DIR elsewhere.`;
  }
}
