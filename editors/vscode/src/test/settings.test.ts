// Unit tests of the settings the extension sends (npm test, after tsc).
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { bundledServerPath, DOCUMENT_SELECTOR, serverCommand, serverSettings, SettingsReader } from '../settings';

function reader(values: Record<string, unknown>): SettingsReader {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

test('defaults: resolve on save, everything else from citeproof.toml', () => {
  assert.deepEqual(serverSettings(reader({ verify: null, offline: null, env: {} })), {
    resolve: 'onSave',
  });
});

test('every server setting is passed on, paths made absolute', () => {
  const settings = serverSettings(
    reader({
      resolve: 'off',
      verify: true,
      offline: false,
      configFile: '${workspaceFolder}/ci/citeproof.toml',
      env: { CITEPROOF_MAILTO: 'me@example.org', BAD: 3 },
    }),
    '/work/paper',
  );
  assert.deepEqual(settings, {
    resolve: 'off',
    verify: true,
    offline: false,
    configFile: '/work/paper/ci/citeproof.toml',
    env: { CITEPROOF_MAILTO: 'me@example.org' },
  });
  assert.equal(
    serverSettings(reader({ configFile: 'cfg.toml' }), '/work/paper').configFile,
    '/work/paper/cfg.toml',
  );
  assert.equal(serverSettings(reader({ resolve: 'sometimes' })).resolve, 'onSave');
});

test('the server command: a name on PATH, or a path expanded', () => {
  assert.deepEqual(serverCommand(reader({})), { command: 'citeproof', args: ['lsp'] });
  assert.deepEqual(serverCommand(reader({ 'server.path': '~/bin/citeproof', 'server.args': ['lsp', '-v'] })), {
    command: path.join(os.homedir(), 'bin/citeproof'),
    args: ['lsp', '-v'],
  });
  assert.equal(
    serverCommand(reader({ 'server.path': 'target/release/citeproof' }), '/src/citeproof').command,
    '/src/citeproof/target/release/citeproof',
  );
});

test('the bundled server unless citeproof.server.path is set', () => {
  const bundled = bundledServerPath('/ext', 'linux');
  assert.equal(bundled, path.join('/ext', 'server', 'citeproof'));
  assert.equal(bundledServerPath('/ext', 'win32'), path.join('/ext', 'server', 'citeproof.exe'));
  assert.equal(serverCommand(reader({}), undefined, bundled).command, bundled);
  assert.equal(serverCommand(reader({ 'server.path': '  ' }), undefined, bundled).command, bundled);
  assert.equal(serverCommand(reader({ 'server.path': 'citeproof' }), undefined, bundled).command, 'citeproof');
  assert.equal(
    serverCommand(reader({ 'server.path': '/opt/citeproof' }), undefined, bundled).command,
    '/opt/citeproof',
  );
  // A universal package (no server inside) starts citeproof from PATH.
  assert.equal(serverCommand(reader({ 'server.path': '' })).command, 'citeproof');
});

test('the documents: Markdown, Quarto, LaTeX, BibTeX and plain text, saved or not', () => {
  const languages = new Set(DOCUMENT_SELECTOR.map((s) => s.language));
  for (const language of ['markdown', 'quarto', 'latex', 'bibtex', 'plaintext']) {
    assert.ok(languages.has(language), language);
  }
  assert.ok(DOCUMENT_SELECTOR.some((s) => s.scheme === 'untitled'));
});
