/**
 * The release fields of the built `system.json`: where Foundry finds the system's page, its
 * manifest (to install and to check for updates), the zip of this version, the readme, the
 * licence, the bug tracker and the release notes.
 *
 * The URLs follow GitHub's release layout, as dnd5e, pf2e and Draw Steel publish theirs:
 * - `manifest`: `https://github.com/<repository>/releases/latest/download/system.json`, the
 *   manifest of whichever release is the latest, so that a world installed from it sees updates;
 * - `download`: `https://github.com/<repository>/releases/download/<tag>/fray-<version>.zip`, the
 *   zip of this version (a manifest always names its own version's zip);
 * - `url`, `bugs`, `changelog`: the repository, its issues, its releases;
 * - `readme`: the README at the release's tag (its images are beside it there);
 * - `license`: `LICENSE`, shipped at the zip's root.
 *
 * The repository and tag come from the environment where the release workflow sets them from the
 * GitHub context (`FRAY_REPOSITORY` from `github.repository`, `FRAY_RELEASE_TAG` from
 * `github.event.release.tag_name`), so the URLs are right wherever the repository is published;
 * elsewhere the repository is read from the checked-in manifest's `url` and the tag is `v<version>`.
 */

/** The release tag of a version: `v` and the version (`v0.1.0`). */
export function tagOf(version) {
  return `v${version}`;
}

/**
 * The `owner/name` of a GitHub repository URL (`https://github.com/owner/name`).
 * Throws when the URL is not a repository on github.com.
 */
export function repositoryOf(url) {
  const match = /^https:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/?$/.exec(String(url ?? ""));
  if (!match) throw new Error(`system.json: "url" must be a GitHub repository (https://github.com/owner/name), not ${JSON.stringify(url)}`);
  return match[1];
}

/**
 * The release fields for `repository` (`owner/name`), `tag` and `version`.
 * Throws when the repository is not `owner/name` or the tag is not the version's (`v<version>`):
 * a release tagged `v0.2.0` must build version 0.2.0, or its manifest would name another zip.
 */
export function releaseFields({ repository, tag, version }) {
  if (!/^[\w.-]+\/[\w.-]+$/.test(String(repository ?? ""))) {
    throw new Error(`The repository must be owner/name, not ${JSON.stringify(repository)}`);
  }
  if (tag !== tagOf(version)) {
    throw new Error(
      `The release tag ${JSON.stringify(tag)} does not match the version ${version} of package.json (expected ${tagOf(version)})`,
    );
  }
  const home = `https://github.com/${repository}`;
  return {
    url: home,
    manifest: `${home}/releases/latest/download/system.json`,
    download: `${home}/releases/download/${tag}/fray-${version}.zip`,
    readme: `${home}/blob/${tag}/README.md`,
    license: "LICENSE",
    bugs: `${home}/issues`,
    changelog: `${home}/releases`,
  };
}

/**
 * The manifest the build writes: `manifest` (the checked-in `system.json`, not changed) with
 * `version` and the release fields for the repository and tag of `env` (see above).
 */
export function releaseManifest(manifest, version, env = {}) {
  const repository = env.FRAY_REPOSITORY || repositoryOf(manifest.url);
  const tag = env.FRAY_RELEASE_TAG || tagOf(version);
  return { ...manifest, version, ...releaseFields({ repository, tag, version }) };
}
