import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  expectNoSeriousA11yViolations,
  launchBrowser,
  newContext,
  type Page,
  PHONE,
} from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';

const PASSWORD = 'first-pass-123';
const NEW_PASSWORD = 'second-pass-456';

function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function openUserMenu(page: Page, name: string) {
  await page.getByRole('button', { name: `Hi, ${name}` }).click();
}

/** Reloads /dev/mail until a message to `to` with `subject` is listed (the sender runs every few seconds). */
async function openMail(page: Page, to: string, subject: string) {
  // The outbox sender runs every 3 s; on a loaded CI machine allow it up to 40 s.
  for (let i = 0; i < 80; i++) {
    await page.goto('/dev/mail');
    const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject });
    if ((await row.count()) > 0) {
      await row.first().getByRole('link', { name: subject }).click();
      return;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no mail '${subject}' to ${to} in /dev/mail`);
}

describe('accounts in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs up, out and in, saves the profile, and resets a forgotten password through the mailed link', async () => {
    const { context, cspViolations } = await newContext(browser, e2eServer().baseURL);
    const page = await context.newPage();
    const email = uniqueEmail('asha');
    const name = 'Asha Verma';

    // Sign up: every §5 message shows beside its field, and editing clears it.
    await page.goto('/SignUp');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByText('Please confirm your password').waitFor();
    await page.getByText('Please accept the Terms of Service and Privacy Policy').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Name').fill(name);
    await expect(page.getByText('Name is required').count()).resolves.toBe(0);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mobile (optional)').fill('9876543210');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('Password', { exact: true }).getAttribute('type')).resolves.toBe('text');
    await page.getByLabel(/I accept the/).check();
    await expect(
      page.getByText('Please accept the Terms of Service and Privacy Policy').count(),
    ).resolves.toBe(0);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // Sign out from the header menu.
    await openUserMenu(page, name);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();

    // A wrong password gets the general message, which clears on edit.
    await page.goto('/login');
    await signIn(page, email, 'not-my-password');
    const alert = page.getByRole('alert').filter({ hasText: 'Invalid email or password' });
    await alert.waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await expect(alert.count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: `Hi, ${name}` }).waitFor();

    // Profile: Edit Profile, change the fields, Save; a reload shows the saved values.
    await openUserMenu(page, name);
    await page.getByRole('link', { name: 'My Profile' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    await expect(page.getByLabel('Name').isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Name').fill('Asha V');
    await page.getByLabel('Phone Number').fill('9123456780');
    await page.getByLabel('Gender').selectOption('female');
    await page.getByLabel('Country').selectOption('india');
    await page.getByLabel('State').selectOption('Karnataka');
    await page.getByLabel('About You').fill('Loves live music');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile saved' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.reload();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('Asha V');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);
    await expect(page.getByLabel('Phone Number').inputValue()).resolves.toBe('9123456780');
    await expect(page.getByLabel('Gender').inputValue()).resolves.toBe('female');
    await expect(page.getByLabel('Country').inputValue()).resolves.toBe('india');
    await expect(page.getByLabel('State').inputValue()).resolves.toBe('Karnataka');
    await expect(page.getByLabel('About You').inputValue()).resolves.toBe('Loves live music');
    await page.getByText('Asha V', { exact: true }).first().waitFor();
    await openUserMenu(page, 'Asha V');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();

    // Forgot password: the same answer for everyone, and a link in the development mailbox.
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    // The URL changes before the page's code has loaded, and the sign-in form (with its own Email field)
    // stays on screen until then: wait for the new page, or the address goes into the old form.
    await page.getByRole('heading', { level: 1, name: 'Forgot Password' }).waitFor();
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText("If an account exists for that address, we've sent a reset link").waitFor();

    await openMail(page, email, 'Reset your Jalsa password');
    await page.getByRole('link', { name: 'View HTML version' }).click();
    await page.getByRole('link', { name: 'Reset password' }).click();
    await page.waitForURL((url) => url.pathname === '/reset-password');
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password has been changed' }).waitFor();
    await page.getByRole('link', { name: 'Sign In' }).last().click();
    await page.waitForURL((url) => url.pathname === '/login');

    // The old password no longer works; the new one does.
    await signIn(page, email, PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Hi, Asha V' }).waitFor();

    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('sends a signed-out visitor from /profile to sign in and back, on a phone', async () => {
    const { context } = await newContext(browser, e2eServer().baseURL, PHONE);
    const page = await context.newPage();
    const email = uniqueEmail('ravi');

    await page.goto('/protected');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/protected');

    await page.goto('/SignUp');
    await page.getByLabel('Name').fill('Ravi Kumar');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel(/I accept the/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/protected');
    await page.getByText('Only accessible to logged-in users.').waitFor();

    await context.clearCookies();
    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/profile');
    await signIn(page, email, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);
    await context.close();
  });
});
