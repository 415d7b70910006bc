/**
 * The README as a newcomer meets it: the two fresh-machine commands first, then the GM's guide
 * (install, choose a ruleset, start a fight, screenshots), developer and performance internals
 * only linked from docs/. Every relative link and image of the README and docs/ resolves, and the
 * screenshots stay small.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/foundry-stub.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const docs = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => join(ROOT, "docs", f));
const headings = readme.split("\n").filter((l) => /^#{1,3} /.test(l));

describe("README", () => {
  it("starts with the two fresh-machine commands", () => {
    expect(headings[0]).toBe("# Fray");
    expect(headings[1]).toBe("## On a fresh machine");
    const section = readme.slice(
      readme.indexOf("## On a fresh machine"),
      readme.indexOf("\n#", readme.indexOf("## On a fresh machine") + 5),
    );
    expect(section).toContain("npm ci && npm start");
    expect(section).toContain("npm ci && npm test");
  });

  it("then the GM's guide: installing, choosing a ruleset, starting a fight in each ruleset, before anything for developers", () => {
    const order = [
      "# The GM's guide",
      "## Installing",
      "## Choosing a ruleset",
      "## Starting a fight",
      "### UD10",
      "### Hitbox",
      "### Critical",
      "### Zones",
      "# For developers",
    ];
    const at = order.map((h) => headings.indexOf(h));
    expect(at.every((i) => i > 1)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(readme).toMatch(/releases\/latest\/download\/system\.json/);
  });

  it("shows screenshots of the sheet, the dialog and cards of every ruleset", () => {
    const images = [...readme.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThanOrEqual(4);
    for (const ruleset of ["critical", "zones", "hitbox"]) expect(images.some((i) => i.includes(ruleset))).toBe(true);
  });

  it("leaves the performance and developer internals to docs/", () => {
    for (const internal of ["V8", "callgrind", "hidden class", "tsImport", "Hooks.call(", "vmThreads"])
      expect(readme).not.toContain(internal);
    for (const doc of ["docs/performance.md", "docs/development.md", "docs/encounters.md", "docs/releasing.md"])
      expect(readme).toContain(`](${doc})`);
  });
});

describe("README and docs/", () => {
  it("link only to files that exist", () => {
    const missing: string[] = [];
    for (const file of [join(ROOT, "README.md"), ...docs]) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(dirname(file), target))) missing.push(`${relative(ROOT, file)}: ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("keep the screenshots small (under 300 KiB together)", () => {
    const dir = join(ROOT, "docs", "images");
    const total = readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    expect(total).toBeLessThan(300 * 1024);
  });
});
