// The NDL extension: highlighting (syntaxes/) and the language server, `ndlc lsp`, started
// through vscode-languageclient for .ndl documents. The server's command comes from the
// settings ndl.server.path and ndl.server.stdlib (server.js, shared with the tests).
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { serverCommand } = require('./server');

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration('ndl.server');
  const command = serverCommand({ path: settings.get('path'), stdlib: settings.get('stdlib') });
  client = new LanguageClient('ndl', 'NDL (ndlc lsp)', { run: command, debug: command }, {
    documentSelector: [{ scheme: 'file', language: 'ndl' }, { scheme: 'untitled', language: 'ndl' }],
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start().catch((e) => {
    vscode.window.showErrorMessage(
      `NDL: cannot start ${command.command} lsp (${e.message}); set ndl.server.path to your ndlc`);
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
