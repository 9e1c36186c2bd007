import path from 'node:path';
import type { AppDeps } from './deps.ts';
import { createIrpProvider } from './integrations/irp/irp-provider.ts';
import { createRazorpayGateway } from './integrations/razorpay/gateway.ts';
import { createResendMailer } from './integrations/resend/resend-mailer.ts';
import { createS3ImageStorage, s3SettingsOf } from './integrations/s3/s3-image-storage.ts';
import { createSimulatorGateway } from './integrations/simulator/gateway.ts';
import type { EInvoiceProvider } from './services/invoices/e-invoice-provider.ts';
import { createDevMailer } from './services/mail/dev-mailbox.ts';
import type { Mailer } from './services/mail/mailer.ts';
import type { PaymentGateway } from './services/payments/gateway.ts';
import { simulatorAllowed } from './services/payments/gateway-of.ts';
import { createDiskImageStorage } from './services/uploads/disk-image-storage.ts';
import type { ImageStorage } from './services/uploads/image-storage.ts';

/** AppDeps before the providers are chosen; a test may pass its own gateway, mailer or image storage. */
export type BaseDeps = Omit<AppDeps, 'paymentGateway' | 'mailer' | 'images' | 'eInvoiceProvider'> &
  Partial<Pick<AppDeps, 'paymentGateway' | 'mailer' | 'images' | 'eInvoiceProvider'>>;

/**
 * The composition root's choices: which payment gateway and which mailer this app uses, picked from
 * the environment unless `base` already has one (a test's fake). Services receive them in AppDeps and
 * never import integrations/. This is a module of its own, not deps.ts, because every service imports
 * deps.ts for the AppDeps type: choosing there would make services → deps → integrations → services.
 */
export function composeDeps(base: BaseDeps): AppDeps {
  return {
    ...base,
    paymentGateway: base.paymentGateway === undefined ? choosePaymentGateway(base) : base.paymentGateway,
    mailer: base.mailer ?? chooseMailer(base),
    images: base.images ?? chooseImageStorage(base),
    eInvoiceProvider:
      base.eInvoiceProvider === undefined ? chooseEInvoiceProvider(base) : base.eInvoiceProvider,
  };
}

/**
 * The IRP over HTTP when EINVOICE_IRP_URL and EINVOICE_IRP_TOKEN are set; otherwise none, and the
 * invoices that need an IRN wait with that reason shown (register-e-invoices.ts).
 */
function chooseEInvoiceProvider(deps: Pick<BaseDeps, 'env'>): EInvoiceProvider | null {
  const { EINVOICE_IRP_URL, EINVOICE_IRP_TOKEN } = deps.env;
  if (!EINVOICE_IRP_URL || !EINVOICE_IRP_TOKEN) return null;
  return createIrpProvider({ baseUrl: EINVOICE_IRP_URL, token: EINVOICE_IRP_TOKEN });
}

/**
 * Uploaded images go to the S3-compatible bucket when its settings are present (env.ts has checked they
 * are complete), which every server of a multi-server installation shares; otherwise DATA_DIR/uploads,
 * beside the database they belong to and backed up with it (docs/decisions/0018, 0049).
 */
function chooseImageStorage(deps: Pick<BaseDeps, 'env'>): ImageStorage {
  const bucket = s3SettingsOf(deps.env);
  if (bucket) return createS3ImageStorage(bucket);
  return createDiskImageStorage(path.join(deps.env.DATA_DIR, 'uploads'));
}

/**
 * Razorpay when all three RAZORPAY_* settings are present, otherwise the offline simulator where it is
 * allowed, otherwise none (services/payments/gateway-of.ts then refuses payments).
 */
function choosePaymentGateway(deps: BaseDeps): PaymentGateway | null {
  const { RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET } = deps.env;
  if (RAZORPAY_KEY_ID && RAZORPAY_KEY_SECRET && RAZORPAY_WEBHOOK_SECRET) {
    return createRazorpayGateway({
      keyId: RAZORPAY_KEY_ID,
      keySecret: RAZORPAY_KEY_SECRET,
      webhookSecret: RAZORPAY_WEBHOOK_SECRET,
    });
  }
  // The simulator's Pay button costs nothing: it never sells real tickets unless explicitly allowed.
  return simulatorAllowed(deps.env) ? createSimulatorGateway(deps) : null;
}

/** Resend when RESEND_API_KEY is set, otherwise the development mailbox in DATA_DIR/mail. */
export function chooseMailer(deps: Pick<BaseDeps, 'env' | 'logger' | 'clock'>): Mailer {
  if (deps.env.RESEND_API_KEY)
    return createResendMailer(deps.env.RESEND_API_KEY, deps.env.MAIL_SEND_PER_SECOND);
  if (deps.env.NODE_ENV === 'production') {
    deps.logger.warn('RESEND_API_KEY is not set: e-mail is written to DATA_DIR/mail and not delivered');
  }
  return createDevMailer(deps.env.DATA_DIR, deps.clock);
}
