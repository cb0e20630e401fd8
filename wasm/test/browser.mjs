// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: no
// driver package), and a static server for wasm/ (the page, the package, the fixtures).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };

/** Serves wasm/ on a free local port; resolves to the server (`.port`). */
export function serve() {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    try {
      const body = readFileSync(join(root, path));
      res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(Object.assign(server, { port: server.address().port }))));
}

/** A headless Chromium (`$CHROMIUM`, else `chromium`) and one page in it. */
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), "tms-chromium-"));
  const proc = spawn(process.env.CHROMIUM ?? "chromium", [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
    `--user-data-dir=${profile}`, "--window-size=1100,900", "about:blank",
  ], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  const pending = new Map();
  let next = 1;
  let buffer = Buffer.alloc(0);
  proc.stdio[4].on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    let end;
    while ((end = buffer.indexOf(0)) >= 0) {
      const msg = JSON.parse(buffer.subarray(0, end).toString());
      buffer = buffer.subarray(end + 1);
      const waiter = pending.get(msg.id);
      if (waiter) {
        pending.delete(msg.id);
        msg.error ? waiter.fail(new Error(`${waiter.method}: ${msg.error.message}`)) : waiter.ok(msg.result);
      }
    }
  });
  const exited = new Promise((_, fail) => proc.on("exit", (code) => fail(new Error(`chromium exited (${code}): ${stderr.slice(-2000)}`))));
  exited.catch(() => {});
  const send = (method, params = {}, sessionId) => {
    const id = next++;
    proc.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + "\0");
    return Promise.race([new Promise((ok, fail) => pending.set(id, { ok, fail, method })), exited]);
  };
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  return {
    /** Opens `url`. */
    goto: (url) => page("Page.navigate", { url }),
    /** The value of `expression` (promises awaited). */
    async evaluate(expression) {
      const r = await page("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
      if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.text}`);
      return r.result.value;
    },
    /** A PNG of the page. */
    async screenshot() {
      const { data } = await page("Page.captureScreenshot", { format: "png" });
      return Buffer.from(data, "base64");
    },
    async close() {
      const gone = new Promise((ok) => (proc.exitCode !== null ? ok() : proc.once("exit", ok)));
      await send("Browser.close").catch(() => {});
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await gone;
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
