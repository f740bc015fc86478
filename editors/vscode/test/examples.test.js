// Highlights every shipped program with the extension's grammar and checks
// what a user would see at a glance:
//  - the head of every form that the checker knows (Forms.def, read through
//    editors/sync_names.py --list) is support.function.form.ndl, keywords of
//    the expression language are keyword.control(.definition).ndl, and no
//    unknown head is coloured as a form;
//  - every enum value the checker knows is support.constant.enum.ndl;
//  - nothing in a shipped program is invalid.illegal.* (bad character, stray
//    parenthesis, unterminated string, unknown unit).
// Inputs: examples/**/*.ndl, stdlib/**/*.ndl and the spec's INSIGHT program
// (test/insight-figure1.ndl), or the files given on the command line.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { loadGrammar, tokenizeText } = require('./tokenize');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PYTHON = process.env.PYTHON || 'python3';
const IDENT = /^[A-Za-z_][A-Za-z0-9_+\-.?!*]*$/;

function names(category) {
  const out = execFileSync(PYTHON, [path.join(ROOT, 'editors', 'sync_names.py'), '--list', category],
    { encoding: 'utf8' });
  return new Set(out.split('\n').filter(Boolean));
}

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return e.isFile() && e.name.endsWith('.ndl') ? [p] : [];
  });
}

const has = (tok, scope) => tok.scopes.includes(scope);
const last = (tok) => tok.scopes[tok.scopes.length - 1];

// Failures found in one program's text; `stats` counts what was checked.
function checkText(grammar, text, file, known, stats) {
  const failures = [];
  const fail = (line, tok, msg) =>
    failures.push(`${file}:${line}:${tok.start + 1}: ${JSON.stringify(tok.text)} ${msg} (${tok.scopes.join(' ')})`);
  for (const { line, tokens } of tokenizeText(grammar, text)) {
    tokens.forEach((tok, i) => {
      const bad = tok.scopes.find((s) => s.startsWith('invalid.'));
      if (bad) fail(line, tok, `is ${bad} in a shipped program`);

      const inText = tok.scopes.some((s) => s.startsWith('comment.') || s.startsWith('string.'));
      if (!inText && known.enums.has(tok.text) && !tok.scopes.some((s) => s.startsWith('entity.name.'))) {
        stats.enums++;
        if (!has(tok, 'support.constant.enum.ndl')) fail(line, tok, 'is a known enum value but not support.constant.enum.ndl');
      }

      // A head: the first word after `(` on the same line.
      if (last(tok) !== 'punctuation.section.list.begin.ndl') return;
      let j = i + 1;
      while (j < tokens.length && tokens[j].text.trim() === '') j++;
      const head = tokens[j];
      if (!head || !IDENT.test(head.text)) return;
      if (head.scopes.some((s) => s.startsWith('entity.name.'))) return; // (define (name ...
      stats.heads++;
      if (known.forms.has(head.text)) {
        if (!has(head, 'support.function.form.ndl')) fail(line, head, 'is a known form in head position but not support.function.form.ndl');
      } else if (known.keywords.has(head.text)) {
        if (!has(head, 'keyword.control.ndl')) fail(line, head, 'is a keyword in head position but not keyword.control.ndl');
      } else if (known.definitions.has(head.text)) {
        if (!has(head, 'keyword.control.definition.ndl')) fail(line, head, 'is a definition form but not keyword.control.definition.ndl');
      } else if (has(head, 'support.function.form.ndl')) {
        fail(line, head, 'is not a known form but is coloured as one');
      }
    });
  }
  return failures;
}

async function main() {
  const known = {
    forms: names('forms'), enums: names('enums'),
    keywords: names('keywords'), definitions: names('definitions'),
  };
  const grammar = await loadGrammar();
  const failures = [];

  // The check must be able to fail: a form the checker gains but the grammar
  // lacks, and a word the grammar wrongly colours as a form.
  {
    const stats = { heads: 0, enums: 0 };
    const gained = { ...known, forms: new Set([...known.forms, 'BrandNewForm']) };
    if (checkText(grammar, '(BrandNewForm 1)\n', 'self-test', gained, stats).length !== 1)
      failures.push('self-test: a known form missing from the grammar went unnoticed');
    const lost = { ...known, forms: new Set([...known.forms].filter((f) => f !== 'Seed')) };
    if (checkText(grammar, '(Seed 1)\n', 'self-test', lost, stats).length !== 1)
      failures.push('self-test: an unknown head coloured as a form went unnoticed');
    if (checkText(grammar, '(Seed 1))\n', 'self-test', known, stats).length !== 1)
      failures.push('self-test: a stray parenthesis went unnoticed');
  }

  const files = process.argv.length > 2
    ? process.argv.slice(2)
    : [...walk(path.join(ROOT, 'examples')), ...walk(path.join(ROOT, 'stdlib')),
       path.join(__dirname, 'insight-figure1.ndl')].sort();
  const stats = { heads: 0, enums: 0 };
  for (const f of files) {
    failures.push(...checkText(grammar, fs.readFileSync(f, 'utf8'), path.relative(ROOT, f), known, stats));
  }
  for (const f of failures) console.error(f);
  console.log(`examples: ${files.length} file(s), ${stats.heads} form head(s), ${stats.enums} enum value(s), ` +
    `${failures.length} failure(s)`);
  if (stats.heads === 0) {
    console.error('examples: no form heads found; nothing was checked');
    process.exit(1);
  }
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
