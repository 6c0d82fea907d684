import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, PLAYWRIGHT_DISABLED_FEATURES, launchBrowser } from '../support/browser';

/**
 * The browser suites' Chromium: it turns off what Playwright turns off (Chromium keeps only the last
 * --disable-features switch, so ours must repeat Playwright's list), and a context costs no omnibox pop-up.
 */

/** The features switched off on the command line of the Chromium this process launched last (Linux /proc). */
function disabledFeaturesOfOurChromium(): string[] {
  const ours = fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).flatMap((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return parent === process.pid && args.includes('--remote-debugging-pipe') ? [{ pid: Number(pid), args }] : [];
    } catch {
      return []; // the process ended meanwhile
    }
  });
  const newest = ours.sort((a, b) => b.pid - a.pid)[0];
  if (!newest) throw new Error('no Chromium launched by this process');
  const last = newest.args.filter((arg) => arg.startsWith('--disable-features=')).at(-1) ?? '--disable-features=';
  return last.slice('--disable-features='.length).split(',').filter(Boolean);
}

let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

test("Playwright's own list of switched-off features is all in ours", async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const playwrights = disabledFeaturesOfOurChromium();
  expect(playwrights.length).toBeGreaterThan(5);
  expect(playwrights.filter((feature) => !PLAYWRIGHT_DISABLED_FEATURES.includes(feature))).toEqual([]);
});

test('a new context opens a page and no omnibox pop-up', async () => {
  browser = await launchBrowser();
  expect(disabledFeaturesOfOurChromium()).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup']));
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent('<title>Checkout</title>');
  const session = await browser.newBrowserCDPSession();
  const { targetInfos } = await session.send('Target.getTargets', { filter: [{}] });
  expect(targetInfos.map((target) => target.type).sort()).toEqual(['page', 'tab']);
});
