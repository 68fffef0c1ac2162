// Drives Neo4j Browser (served by graphmem at /browser/) in headless Chromium: log in to Bolt, run a query,
// print what the page shows as JSON, and save a screenshot.
// Usage: node connect_neo4j_browser.mjs URL PASSWORD SCREENSHOT [QUERY EXPECTED_TEXT]
// (PLAYWRIGHT_CORE = path to playwright-core)
const { chromium } = await import(process.env.PLAYWRIGHT_CORE ?? "playwright-core");
const [url, password, screenshot, query, expected] = process.argv.slice(2);
// QUERY may also be a JSON list of [query, expected text] steps, run one after another.
const steps = query?.startsWith("[") ? JSON.parse(query)
  : [[query ?? "SHOW INDEXES YIELD name, type WHERE type = 'VECTOR' RETURN name ORDER BY name",
      expected ?? "semantic_embedding"]];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});
const result = { connected: false, queryOutput: "" };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url, { waitUntil: "load" });
  await page.getByTestId("username").fill("neo4j", { timeout: 30000 });
  await page.getByTestId("password").fill(password);
  await page.getByTestId("connect").click();
  await page.getByText("You are connected as user", { exact: false }).first().waitFor({ timeout: 30000 });
  result.connected = true;
  const editor = page.locator("#monaco-main-editor textarea, .monaco-editor textarea").first();
  for (const [cypher, text] of steps) {
    await editor.click();
    await page.keyboard.insertText(cypher);
    await page.keyboard.press("Control+Enter");
    await page.getByText(text).first().waitFor({ timeout: 30000 });
  }
  result.queryOutput = await page.locator("body").innerText();
  await page.screenshot({ path: screenshot });
} catch (error) {
  result.error = String(error);
  await browser.contexts()[0]?.pages()[0]?.screenshot({ path: screenshot }).catch(() => {});
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
