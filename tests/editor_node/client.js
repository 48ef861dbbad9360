// An editor client for `citeproof lsp` built on the libraries VS Code's own language
// client uses (vscode-jsonrpc, vscode-languageserver-protocol): it starts the server,
// initializes with VS Code's capabilities, answers workspace/configuration, opens the
// fixtures, waits for diagnostics, asks for code actions on CP108, applies the quick
// fix's WorkspaceEdit to its copy of the buffer, sends the change, and waits for the
// new diagnostics. It prints what it saw as JSON; tests/editor_node.rs asserts it.
//
// usage: node client.js SERVER_BINARY FIXTURE_DIR [EVENT_DEADLINE_MS]
'use strict';

const { spawn } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');
const { pathToFileURL } = require('node:url');
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} = require('vscode-languageserver-protocol/node');
const {
  InitializeRequest,
  InitializedNotification,
  ShutdownRequest,
  ExitNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidChangeConfigurationNotification,
  PublishDiagnosticsNotification,
  ConfigurationRequest,
  RegistrationRequest,
  WorkDoneProgressCreateRequest,
  ApplyWorkspaceEditRequest,
  CodeActionRequest,
  CodeActionResolveRequest,
  CodeActionKind,
  CodeActionTriggerKind,
} = require('vscode-languageserver-protocol');
const { TextDocument } = require('vscode-languageserver-textdocument');

const [server, dir, deadlineArg] = process.argv.slice(2);
const deadlineMs = Number(deadlineArg || 30000);
const settings = { resolve: 'off', configFile: path.join(dir, 'editor-settings.toml') };
const result = { steps: [], logs: [], versions: {} };

const child = spawn(server, ['lsp'], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createProtocolConnection(
  new StreamMessageReader(child.stdout),
  new StreamMessageWriter(child.stdin),
);
const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));

// What the server published, by URI; whoever waits is told of each publication.
const published = new Map();
let onPublish = () => {};
connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
  published.set(params.uri, params);
  onPublish();
});
connection.onNotification('window/logMessage', (params) => result.logs.push(params.message));
// Answered as VS Code answers them.
connection.onRequest(ConfigurationRequest.type, (params) =>
  params.items.map((item) => (item.section === 'citeproof' ? settings : null)),
);
connection.onRequest(RegistrationRequest.type, () => null);
connection.onRequest(WorkDoneProgressCreateRequest.type, () => null);
connection.onRequest(ApplyWorkspaceEditRequest.type, (params) => ({
  applied: applyWorkspaceEdit(params.edit),
}));
connection.listen();

function waitFor(what, condition) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      onPublish = () => {};
      reject(new Error(`timed out after ${deadlineMs} ms waiting for ${what}`));
    }, deadlineMs);
    const check = () => {
      const value = condition();
      if (value) {
        clearTimeout(timer);
        onPublish = () => {};
        result.steps.push(what);
        resolve(value);
      }
    };
    onPublish = check;
    check();
  });
}

// The open buffers, as the editor holds them.
const documents = new Map();

function open(file, languageId) {
  const uri = pathToFileURL(path.join(dir, file)).href;
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  documents.set(uri, TextDocument.create(uri, languageId, 1, text));
  connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId, version: 1, text },
  });
  return uri;
}

// Apply a WorkspaceEdit to the open buffers and tell the server, as VS Code does
// (incremental changes, the version bumped). Refuses edits for a stale version.
function applyWorkspaceEdit(edit) {
  const perDocument = [];
  for (const change of edit.documentChanges || []) {
    if (!change.textDocument) {
      result.steps.push(`resource operation ${change.kind} not applied`);
      return false;
    }
    const doc = documents.get(change.textDocument.uri);
    const version = change.textDocument.version;
    if (!doc || (version !== null && version !== undefined && version !== doc.version)) {
      return false;
    }
    perDocument.push([change.textDocument.uri, change.edits]);
  }
  for (const [uri, edits] of Object.entries(edit.changes || {})) {
    if (!documents.has(uri)) {
      return false;
    }
    perDocument.push([uri, edits]);
  }
  for (const [uri, edits] of perDocument) {
    const doc = documents.get(uri);
    const text = TextDocument.applyEdits(doc, edits);
    const next = TextDocument.create(uri, doc.languageId, doc.version + 1, text);
    documents.set(uri, next);
    // Applied from the last edit back, so each range is still valid when sent.
    const sorted = [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
    connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: next.version },
      contentChanges: sorted.map((e) => ({ range: e.range, text: e.newText })),
    });
  }
  return perDocument.length > 0;
}

function codes(uri) {
  return (published.get(uri)?.diagnostics || []).map((d) => d.code);
}

// The published diagnostics with the text under each range (JS strings are UTF-16,
// as the negotiated position encoding is); their version goes under `versions`.
function described(uri, name) {
  const doc = documents.get(uri);
  const params = published.get(uri);
  result.versions[name] = params?.version ?? null;
  return (params?.diagnostics || []).map((d) => ({
    code: d.code,
    severity: d.severity,
    line: d.range.start.line,
    text: doc.getText(d.range),
    source: d.source,
    codeDescription: d.codeDescription?.href ?? null,
    hasData: d.data !== undefined,
  }));
}

async function scenario() {
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    clientInfo: { name: 'citeproof-e2e-node' },
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'fixtures' }],
    initializationOptions: settings,
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: {
        configuration: true,
        applyEdit: true,
        workspaceEdit: { documentChanges: true },
        didChangeConfiguration: { dynamicRegistration: true },
        didChangeWatchedFiles: { dynamicRegistration: true },
      },
      window: { workDoneProgress: true },
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: true },
        publishDiagnostics: {
          relatedInformation: true,
          versionSupport: true,
          codeDescriptionSupport: true,
          dataSupport: true,
        },
        codeAction: {
          dataSupport: true,
          isPreferredSupport: true,
          resolveSupport: { properties: ['edit'] },
          codeActionLiteralSupport: {
            codeActionKind: {
              valueSet: [CodeActionKind.QuickFix, CodeActionKind.Refactor, CodeActionKind.Source],
            },
          },
        },
      },
    },
  });
  result.positionEncoding = init.capabilities.positionEncoding ?? null;
  result.codeActionProvider = init.capabilities.codeActionProvider ?? null;
  connection.sendNotification(InitializedNotification.type, {});
  // As editors/vscode does after start and on every change of its settings.
  connection.sendNotification(DidChangeConfigurationNotification.type, {
    settings: { citeproof: settings },
  });

  const paper = open('paper.md', 'markdown');
  await waitFor('CP101 in paper.md', () => codes(paper).includes('CP101'));
  result.paper = described(paper, 'paper');

  const bib = open('refs.bib', 'bibtex');
  // Its diagnostics came first from the paper's check; opened, they come again with
  // the document's version.
  const cp108 = await waitFor('CP108 in refs.bib (version 1)', () =>
    published.get(bib)?.version === 1 && published.get(bib).diagnostics.find((d) => d.code === 'CP108'),
  );
  result.bib_before = described(bib, 'bib_before');

  const actions = await connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: bib },
    range: cp108.range,
    context: { diagnostics: [cp108], triggerKind: CodeActionTriggerKind.Invoked },
  });
  result.actions = (actions || []).map((a) => a.title);
  result.action_kinds = (actions || []).map((a) => a.kind ?? null);
  let chosen = (actions || []).find(
    (a) => a.kind === CodeActionKind.QuickFix && a.title.includes('doi.org URL'),
  );
  if (!chosen) {
    throw new Error('no quick fix titled "…doi.org URL…" among the code actions');
  }
  if (!chosen.edit) {
    chosen = await connection.sendRequest(CodeActionResolveRequest.type, chosen);
  }
  if (!applyWorkspaceEdit(chosen.edit)) {
    throw new Error(`the quick fix's edit could not be applied: ${JSON.stringify(chosen.edit)}`);
  }
  result.bib_text = documents.get(bib).getText();
  const version = documents.get(bib).version;
  await waitFor('diagnostics of the edited refs.bib', () => published.get(bib)?.version === version);
  result.bib_after = described(bib, 'bib_after');
  result.paper_after = described(paper, 'paper_after');
}

async function main() {
  try {
    await scenario();
  } catch (e) {
    result.error = String(e && e.message ? e.message : e);
  }
  try {
    await connection.sendRequest(ShutdownRequest.type);
    connection.sendNotification(ExitNotification.type);
  } catch (e) {
    result.shutdown_error = String(e);
  }
  const timer = setTimeout(() => child.kill(), deadlineMs);
  result.server_exit_code = await exited;
  clearTimeout(timer);
  connection.dispose();
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}

main();
