// What the extension reads from VS Code's settings, without VS Code: the command that
// starts the server, the server's own settings (initializationOptions and the answer
// to workspace/configuration), and the documents it checks. Unit-tested in
// src/test/settings.test.ts.
import * as os from 'node:os';
import * as path from 'node:path';

/** The languages citeproof checks: Markdown (and Quarto, R Markdown), LaTeX, BibTeX
 * (`bibtex` with LaTeX Workshop; `.bib` is plain text without it) and plain-text
 * LLM answers. */
export const LANGUAGES = ['markdown', 'quarto', 'rmd', 'latex', 'tex', 'bibtex', 'plaintext'];

/** Saved files and unsaved (untitled) buffers of those languages. */
export const DOCUMENT_SELECTOR = LANGUAGES.flatMap((language) => [
  { scheme: 'file', language },
  { scheme: 'untitled', language },
]);

/** Reads one setting under `citeproof.` (a WorkspaceConfiguration in VS Code). */
export interface SettingsReader {
  get<T>(key: string): T | undefined;
}

/** The server's settings, as `citeproof lsp` reads them under `citeproof`. Keys left
 * out are taken from citeproof.toml and the environment. */
export interface ServerSettings {
  resolve: 'onSave' | 'off';
  verify?: boolean;
  offline?: boolean;
  configFile?: string;
  env?: Record<string, string>;
  zotero?: boolean;
  zoteroUrl?: string;
  policy?: string;
}

/** `~/…`, `${workspaceFolder}` and relative paths (against the first workspace
 * folder) made absolute. */
export function expandPath(value: string, workspaceFolder: string | undefined): string {
  let expanded = value.replace(/\$\{workspaceFolder\}/g, workspaceFolder ?? '');
  if (expanded === '~' || expanded.startsWith('~/')) {
    expanded = path.join(os.homedir(), expanded.slice(1));
  }
  if (!path.isAbsolute(expanded) && workspaceFolder !== undefined) {
    expanded = path.join(workspaceFolder, expanded);
  }
  return expanded;
}

export function serverSettings(read: SettingsReader, workspaceFolder?: string): ServerSettings {
  const settings: ServerSettings = { resolve: read.get('resolve') === 'off' ? 'off' : 'onSave' };
  const verify = read.get<unknown>('verify');
  if (typeof verify === 'boolean') {
    settings.verify = verify;
  }
  const offline = read.get<unknown>('offline');
  if (typeof offline === 'boolean') {
    settings.offline = offline;
  }
  const configFile = read.get<unknown>('configFile');
  if (typeof configFile === 'string' && configFile.trim() !== '') {
    settings.configFile = expandPath(configFile.trim(), workspaceFolder);
  }
  const zotero = read.get<unknown>('zotero');
  if (typeof zotero === 'boolean') {
    settings.zotero = zotero;
  }
  const zoteroUrl = read.get<unknown>('zoteroUrl');
  if (typeof zoteroUrl === 'string' && zoteroUrl.trim() !== '') {
    settings.zoteroUrl = zoteroUrl.trim();
  }
  const policy = read.get<unknown>('policy');
  if (typeof policy === 'string' && policy.trim() !== '') {
    settings.policy = policy.trim();
  }
  const env = read.get<unknown>('env');
  if (env !== null && typeof env === 'object') {
    const strings = Object.entries(env as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    if (strings.length > 0) {
      settings.env = Object.fromEntries(strings);
    }
  }
  return settings;
}

/** Where a platform-specific package (`vsce package --target`) carries the server:
 * `server/citeproof` (`server/citeproof.exe` on Windows) inside the extension. */
export function bundledServerPath(extensionDir: string, platform: string = process.platform): string {
  return path.join(extensionDir, 'server', platform === 'win32' ? 'citeproof.exe' : 'citeproof');
}

/** The command that starts the server: `citeproof.server.path` when set (a bare name
 * is looked up on PATH; a path with a separator is expanded like `configFile`), else
 * the server bundled with the extension (`bundled`, when the package has one), else
 * `citeproof` on PATH. */
export function serverCommand(
  read: SettingsReader,
  workspaceFolder?: string,
  bundled?: string,
): { command: string; args: string[] } {
  const configured = read.get<unknown>('server.path');
  const name = typeof configured === 'string' ? configured.trim() : '';
  let command: string;
  if (name === '') {
    command = bundled ?? 'citeproof';
  } else if (name.includes('/') || name.includes('\\') || name.startsWith('~')) {
    command = expandPath(name, workspaceFolder);
  } else {
    command = name;
  }
  const args = read.get<unknown>('server.args');
  const list = Array.isArray(args) && args.every((a) => typeof a === 'string') ? (args as string[]) : ['lsp'];
  return { command, args: list };
}
