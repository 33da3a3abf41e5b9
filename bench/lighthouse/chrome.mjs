// A Chromium for a logged-in Lighthouse run (run.py, chrome_with_cookies): launched by
// chrome-launcher with the flags Lighthouse's own launch uses, its debugging port printed on the first
// line; it runs until this process's stdin closes. Flags for Chromium itself: the arguments.
import { launch } from "chrome-launcher";

const chrome = await launch({ chromePath: process.env.CHROME_PATH, chromeFlags: process.argv.slice(2) });
process.stdout.write(`${chrome.port}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await chrome.kill();
  process.exit(0);
});
