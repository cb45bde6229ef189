// One Firefox page driven by the Python tests (tests/support/engines.py), one command a line.
//
// Debian's Firefox ESR, launched by puppeteer-core over WebDriver BiDi. Each line on stdin is
// {"id": n, "cmd": "...", "args": {...}}; each answer on stdout is {"id": n, "ok": true,
// "value": ...} or {"id": n, "ok": false, "error": "..."}. Requests to any host but loopback
// are aborted, as in the Chromium tests.
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const executablePath = process.env.FIREFOX || "/usr/bin/firefox-esr";
const browser = await puppeteer.launch({ browser: "firefox", executablePath, headless: true });
const page = await browser.newPage();
const problems = [];
const consoleLines = [];
page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
page.on("console", (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
await page.setRequestInterception(true);
page.on("request", (request) => {
  const host = new URL(request.url()).hostname;
  if (["127.0.0.1", "localhost", "[::1]"].includes(host) || /^(data|blob):/.test(request.url())) {
    request.continue();
  } else {
    problems.push(`outside request aborted: ${request.url()}`);
    request.abort();
  }
});

const commands = {
  async viewport({ width, height }) {
    await page.setViewport({ width, height });
  },
  async goto({ url, timeout }) {
    await page.goto(url, { waitUntil: "domcontentloaded", timeout });
  },
  async wait({ selector, timeout }) {
    await page.waitForSelector(selector, { visible: true, timeout });
  },
  async waitFunction({ script, timeout }) {
    await page.waitForFunction(script, { timeout, polling: 100 });
  },
  async click({ selector }) {
    await page.click(selector);
  },
  async press({ key }) {
    await page.keyboard.press(key);
  },
  async type({ selector, text }) {
    await page.type(selector, text);
  },
  async evaluate({ script }) {
    return await page.evaluate(script);
  },
  async addScript({ path }) {
    await page.addScriptTag({ path });
  },
  async screenshot({ path }) {
    await page.screenshot({ path });
  },
  async problems() {
    return problems.splice(0);
  },
  async console() {
    return consoleLines.splice(0);
  },
  async version() {
    return await browser.version();
  },
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { id, cmd, args } = JSON.parse(line);
  let answer;
  try {
    if (cmd === "close") break;
    const run = commands[cmd];
    if (!run) throw new Error(`no command ${cmd}`);
    answer = { id, ok: true, value: (await run(args || {})) ?? null };
  } catch (error) {
    answer = { id, ok: false, error: String(error && error.message ? error.message : error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await browser.close();
