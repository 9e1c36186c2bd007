import type { Page } from './browser.ts';

/** Reloads /dev/mail until a message to `to` whose subject contains `subject` is listed, and opens it. */
export async function openMail(page: Page, to: string, subject: string) {
  // The outbox sender runs every few seconds; on a loaded machine allow it up to 40 s.
  for (let i = 0; i < 80; i++) {
    await page.goto('/dev/mail');
    const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject });
    if ((await row.count()) > 0) {
      await row.first().getByRole('link').first().click();
      return;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no mail '${subject}' to ${to} in /dev/mail`);
}
