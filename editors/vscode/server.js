// How the extension starts the language server: `ndlc lsp --stdio`, with the ndlc and the stdlib
// the settings name. No vscode API here, so the tests start the server exactly this way.
'use strict';

// settings: { path: the ndlc to run (default "ndlc", looked up in PATH), stdlib: a stdlib
// folder for --stdlib, or "" for ndlc's own }. Returns vscode-languageclient's Executable.
function serverCommand(settings = {}) {
  const command = settings.path && settings.path.trim() ? settings.path.trim() : 'ndlc';
  const args = ['lsp', '--stdio'];
  if (settings.stdlib && settings.stdlib.trim()) args.push('--stdlib', settings.stdlib.trim());
  return { command, args };
}

module.exports = { serverCommand };
