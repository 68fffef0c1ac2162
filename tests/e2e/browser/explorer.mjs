// Drives the provenance explorer in headless Chromium: search, open a fact, move the as-of slider,
// open a source; prints what the page showed at each step as JSON and saves a screenshot.
// Usage: node explorer.mjs URL KEY SPACE QUERY ASOF_FRACTION SCREENSHOT
const { chromium } = await import(process.env.PLAYWRIGHT_CORE ?? "playwright-core");
const [url, key, space, query, fraction, screenshot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});
const seen = {};
try {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  await page.goto(url, { waitUntil: "load" });
  await page.fill("#key", key);
  await page.fill("#space", space);
  await page.fill("#query", query);
  await page.click("#search button");
  await page.locator("#hits li").first().waitFor({ timeout: 30000 });
  seen.hits = await page.locator("#hits li").allInnerTexts();
  await page.locator("#hits li").first().click();
  await page.locator("#versions li").first().waitFor({ timeout: 30000 });
  await page.waitForTimeout(500);
  seen.title = await page.locator("#detail-title").innerText();
  seen.validNow = await page.locator("#versions li.valid").allInnerTexts();
  seen.versions = await page.locator("#versions li").allInnerTexts();
  await page.$eval("#asof", (input, f) => {
    input.value = String(Math.round(Number(input.max) * Number(f)));
    input.dispatchEvent(new Event("input"));
  }, fraction);
  await page.waitForTimeout(1500);
  seen.asOfLabel = await page.locator("#asof-label").innerText();
  seen.validThen = await page.locator("#versions li.valid").allInnerTexts();
  seen.evidence = await page.locator("#evidence li").allInnerTexts();
  await page.locator("#evidence li").first().click();
  seen.source = await page.locator("#source").innerText();
  await page.screenshot({ path: screenshot, fullPage: true });
} catch (error) {
  seen.error = String(error);
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
