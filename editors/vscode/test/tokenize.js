// Tokenizes .ndl text with the extension's grammar on vscode-textmate +
// vscode-oniguruma (the engine VS Code uses), offline.
//   node test/tokenize.js FILE...   prints every token with its scopes
'use strict';
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const GRAMMAR = path.join(__dirname, '..', 'syntaxes', 'ndl.tmLanguage.json');

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.ndl'
        ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR)
        : null,
  });
  return registry.loadGrammar('source.ndl');
}

// [{line, tokens: [{start, end, text, scopes}]}] for every line of `text`.
function tokenizeText(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split(/\r?\n/).map((line, i) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return {
      line: i + 1,
      tokens: r.tokens.map((t) => ({
        start: t.startIndex, end: t.endIndex,
        text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes,
      })),
    };
  });
}

module.exports = { loadGrammar, tokenizeText };

if (require.main === module) {
  loadGrammar().then((g) => {
    for (const f of process.argv.slice(2)) {
      for (const l of tokenizeText(g, fs.readFileSync(f, 'utf8'))) {
        for (const t of l.tokens) {
          if (t.text.trim() === '') continue;
          console.log(`${f}:${l.line}:${t.start + 1}\t${JSON.stringify(t.text)}\t${t.scopes.slice(1).join(' ')}`);
        }
      }
    }
  });
}
