/**
 * The API reference `npm start` serves at `/docs`, as a person sees it: opened in headless Chromium (Debian's
 * package; puppeteer-core drives it and downloads nothing), it renders the gateway's own document, names every
 * operation, and loads nothing from another host.
 */
import { existsSync } from 'node:fs';
import { Browser, launch } from 'puppeteer-core';
import { buildOpenApiDocument } from '../../shared/openapi/document';
import { gatewayUrl } from '../helpers/http';

/** Where a Chromium may be: CHROME_PATH first, then the Debian and other distributions' packages. */
function chromium(): string {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  const found = candidates.find((c): c is string => !!c && existsSync(c));
  if (!found)
    throw new Error('no Chromium to test /docs with: apt-get install chromium (or set CHROME_PATH to a Chrome binary)');
  return found;
}

interface Operation {
  operationId: string;
  summary: string;
}

const operations = Object.values(buildOpenApiDocument().paths as Record<string, Record<string, Operation>>).flatMap(
  (methods) => Object.values(methods),
);

let browser: Browser;
beforeAll(async () => {
  // --no-sandbox: the tests may run as root (CI does), where Chromium's sandbox refuses to start. The rest keep
  // Chromium from calling Google's services, which a closed CI network refuses, many connections at a time.
  const quiet = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
  browser = await launch({
    executablePath: chromium(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', ...quiet],
  });
});
afterAll(() => browser?.close());

describe('the API reference at /docs', () => {
  it('renders the document in Chromium, naming every operation, loading nothing from another host', async () => {
    const page = await browser.newPage();
    // No wait of puppeteer's own: rendering a document of every kind's operations takes what a loaded machine gives
    // it, and only a hang should fail the test, at jest's timeout below.
    page.setDefaultTimeout(0);
    const origin = new URL(gatewayUrl()).origin;
    const fromElsewhere = (url: string) => !url.startsWith(origin) && !/^(data|blob):/.test(url);
    // What came from another host (the page's Content-Security-Policy blocks it in the browser: Redoc's bundle asks
    // Redocly's CDN for its logo), and what failed of the page's own.
    const loadedElsewhere: string[] = [];
    const failures: string[] = [];
    page.on('response', (r) => {
      if (fromElsewhere(r.url())) loadedElsewhere.push(r.url());
    });
    page.on('pageerror', (e) => failures.push(String(e)));
    page.on('requestfailed', (r) => {
      if (!fromElsewhere(r.url())) failures.push(`${r.url()}: ${r.failure()?.errorText}`);
    });
    const answer = await page.goto(`${gatewayUrl()}/docs`, { waitUntil: 'networkidle0' });
    expect(answer?.status()).toBe(200);
    // Redoc gives each operation's section the id `tag/<tag>/operation/<operationId>`. The page's code is passed as
    // text: the tests are type-checked without the DOM's types.
    const selectors = operations.map((o) => `[id$="/operation/${o.operationId}"]`);
    await page.waitForFunction(`${JSON.stringify(selectors)}.every((s) => document.querySelector(s))`);
    const text = (await page.evaluate('document.body.innerText')) as string;
    expect(operations.filter((o) => !text.includes(o.summary)).map((o) => o.operationId)).toEqual([]);
    expect(await page.title()).toBe('SIEX gateway API reference');
    expect({ loadedElsewhere, failures }).toEqual({ loadedElsewhere: [], failures: [] });
    expect(answer?.headers()['content-security-policy']).toMatch(/^default-src 'self';/);
  }, 600_000);
});
