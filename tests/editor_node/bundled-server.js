// Prints the server the VS Code extension starts when citeproof.server.path is left
// empty, decided by the extension's own compiled code (out/settings.js) inside an
// unpacked platform-specific .vsix: the bundled server/citeproof. Exits 1 when the
// package carries none. tests/editor_node.rs then runs its client against it.
//
// usage: node bundled-server.js UNPACKED_EXTENSION_DIR   (the .vsix's extension/ folder)
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const extensionDir = path.resolve(process.argv[2] ?? '');
const settings = require(path.join(extensionDir, 'out', 'settings.js'));
const candidate = settings.bundledServerPath(extensionDir);
if (!fs.existsSync(candidate)) {
  console.error(`no bundled server in ${extensionDir} (looked for ${candidate})`);
  process.exit(1);
}
// The settings VS Code passes when the user has set nothing: the contributed defaults.
const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
const defaults = Object.fromEntries(
  Object.entries(manifest.contributes.configuration.properties).map(([key, schema]) => [
    key.replace(/^citeproof\./, ''),
    schema.default,
  ]),
);
const { command, args } = settings.serverCommand({ get: (key) => defaults[key] }, undefined, candidate);
console.log(JSON.stringify({ command, args }));
