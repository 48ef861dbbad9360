// The citeproof extension: starts `citeproof lsp` and connects it to VS Code through
// vscode-languageclient. Everything citeproof reports (diagnostics, quick fixes, hover,
// completion, navigation) comes from the server; this file only starts it and hands it
// its settings.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';

import { bundledServerPath, DOCUMENT_SELECTOR, serverCommand, serverSettings, ServerSettings } from './settings';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
/** The server inside this package (platform-specific builds), or undefined. */
let bundled: string | undefined;

function firstWorkspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function settingsFor(scope?: vscode.Uri): ServerSettings {
  const folder = scope ? vscode.workspace.getWorkspaceFolder(scope)?.uri.fsPath : undefined;
  return serverSettings(vscode.workspace.getConfiguration('citeproof', scope), folder ?? firstWorkspaceFolder());
}

/** Whether `command` can be started: a path that exists, or a name found on PATH. */
function findCommand(command: string): boolean {
  if (path.isAbsolute(command)) {
    return fs.existsSync(command);
  }
  const suffixes = process.platform === 'win32' ? ['', '.exe', '.cmd'] : [''];
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && suffixes.some((s) => fs.existsSync(path.join(dir, command + s))));
}

async function start(): Promise<void> {
  const { command, args } = serverCommand(
    vscode.workspace.getConfiguration('citeproof'),
    firstWorkspaceFolder(),
    bundled,
  );
  output?.info(`starting ${command === bundled ? 'the bundled server' : 'the server'} ${command} ${args.join(' ')}`);
  if (!findCommand(command)) {
    const choice = await vscode.window.showErrorMessage(
      `citeproof: cannot find the server \`${command}\`. Install citeproof ` +
        '(https://github.com/citeproof/citeproof#install) or set citeproof.server.path.',
      'Open Settings',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'citeproof.server');
    }
    return;
  }
  const serverOptions: ServerOptions = { command, args, options: { env: process.env } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    initializationOptions: () => settingsFor(),
    middleware: {
      workspace: {
        // The server asks for `citeproof`: answer with its settings only (not the
        // extension's own, such as the server path), per resource.
        configuration: async (params, token, next) => {
          const others = await next(params, token);
          if (others instanceof Error || !Array.isArray(others)) {
            return others;
          }
          return params.items.map((item, i) =>
            item.section === 'citeproof'
              ? settingsFor(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined)
              : others[i],
          );
        },
      },
    },
  };
  client = new LanguageClient('citeproof', 'citeproof', serverOptions, clientOptions);
  try {
    await client.start();
    // The server takes settings pushed as well as pulled: send them once started.
    await client.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { citeproof: settingsFor() },
    });
  } catch (e) {
    void vscode.window.showErrorMessage(`citeproof: the server did not start: ${e}`);
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.stop();
  }
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('citeproof', { log: true });
  const candidate = bundledServerPath(context.extensionPath);
  bundled = fs.existsSync(candidate) ? candidate : undefined;
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('citeproof.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      // citeproof.trace.server is followed by the language client itself.
      if (!event.affectsConfiguration('citeproof') || event.affectsConfiguration('citeproof.trace')) {
        return;
      }
      if (event.affectsConfiguration('citeproof.server')) {
        await restart();
      } else if (client?.isRunning()) {
        await client.sendNotification(DidChangeConfigurationNotification.type, {
          settings: { citeproof: settingsFor() },
        });
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
