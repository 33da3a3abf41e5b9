// Copies the published files the pages load from the npm packages (frontend/node_modules, `npm ci`
// by `make install`) to var/vendor/, which Django serves as static/frontend/vendor/ (settings'
// STATICFILES_DIRS): Pyodide, which runs the rules engine in the page (offline practice), and
// Workbox's service-worker modules. Nothing here is committed; package-lock.json pins each file.
// A source-map comment is dropped (the maps are not copied, and Django's manifest storage refuses a
// reference to a missing file), nothing else is changed.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, "node_modules");
const target = join(here, "..", "var", "vendor");
const version = (name) => JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).version;

// The folder names carry the version: the files keep their published names (Pyodide loads its
// siblings by name), so a new version is a new address and no cache serves the old one.
const PYODIDE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const WORKBOX = ["core", "routing", "strategies", "expiration", "cacheable-response", "precaching", "navigation-preload"];

rmSync(target, { recursive: true, force: true });
const copies = [
  ...PYODIDE.map((file) => [join(modules, "pyodide", file), join(target, `pyodide-${version("pyodide")}`, file)]),
  ...WORKBOX.map((name) => [
    join(modules, `workbox-${name}`, "build", `workbox-${name}.prod.js`),
    join(target, `workbox-${version("workbox-core")}`, `workbox-${name}.prod.js`),
  ]),
];
for (const [from, to] of copies) {
  mkdirSync(dirname(to), { recursive: true });
  if (/\.m?js$/.test(from)) {
    writeFileSync(to, readFileSync(from, "utf8").replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, "\n"));
  } else {
    copyFileSync(from, to);
  }
}
console.log(`vendor: ${copies.length} files in ${target}`);
