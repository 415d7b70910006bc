/** Types of `release-manifest.mjs` (see its docstrings). */
export interface ReleaseFields {
  url: string;
  manifest: string;
  download: string;
  readme: string;
  license: string;
  bugs: string;
  changelog: string;
}
export function tagOf(version: string): string;
export function repositoryOf(url: unknown): string;
export function releaseFields(options: { repository: string; tag: string; version: string }): ReleaseFields;
export function releaseManifest<T extends { url?: unknown }>(
  manifest: T,
  version: string,
  env?: { FRAY_REPOSITORY?: string; FRAY_RELEASE_TAG?: string },
): T & ReleaseFields & { version: string };
