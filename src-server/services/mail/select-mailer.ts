import type { AppDeps } from '../../deps.ts';
import { createResendMailer } from '../../integrations/resend/resend-mailer.ts';
import { createDevMailer } from './dev-mailbox.ts';
import type { Mailer } from './mailer.ts';

const chosen = new WeakMap<AppDeps, Mailer>();

/**
 * The app's mailer: `deps.mailer` when a test passes one, Resend when RESEND_API_KEY is set, otherwise
 * the development mailbox in DATA_DIR/mail. Built once per app.
 */
export function mailerFor(deps: AppDeps): Mailer {
  if (deps.mailer) return deps.mailer;
  let mailer = chosen.get(deps);
  if (!mailer) {
    if (deps.env.RESEND_API_KEY) {
      mailer = createResendMailer(deps.env.RESEND_API_KEY);
    } else {
      mailer = createDevMailer(deps.env.DATA_DIR, deps.clock);
      if (deps.env.NODE_ENV === 'production') {
        deps.logger.warn('RESEND_API_KEY is not set: e-mail is written to DATA_DIR/mail and not delivered');
      }
    }
    chosen.set(deps, mailer);
  }
  return mailer;
}
