// The extension as VS Code installs it starts the language server: packages it with vsce
// (into a .vsix, production dependencies included), unpacks the .vsix, and from the unpacked
// extension alone starts `ndlc lsp` with the command its server.js builds for the settings,
// speaking the protocol through the vscode-jsonrpc the package ships (the transport
// vscode-languageclient runs on). Then: initialize, a document with a misspelled form gets
// its diagnostic at the place `ndlc check` names, hover answers, shutdown and exit with 0.
//   NDLC=build/ndlc node test/server.test.js
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const yauzl = require('yauzl');

const NDLC = process.env.NDLC;
if (!NDLC) throw new Error('set NDLC to the ndlc under test');
const HERE = path.resolve(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ndl-vsix-'));
const ok = (what) => console.log('ok:', what);

function unzip(file, into) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names = [];
      zip.on('entry', (entry) => {
        names.push(entry.fileName);
        const out = path.join(into, entry.fileName);
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        fs.mkdirSync(path.dirname(out), { recursive: true });
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          stream.pipe(fs.createWriteStream(out)).on('finish', () => zip.readEntry());
        });
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

async function main() {
  // Package.
  const vsix = path.join(work, 'ndl.vsix');
  cp.execFileSync(path.join(HERE, 'node_modules', '.bin', 'vsce'),
    ['package', '--skip-license', '--allow-missing-repository', '-o', vsix],
    { cwd: HERE, stdio: ['ignore', 'pipe', 'inherit'] });
  const names = await unzip(vsix, path.join(work, 'x'));
  const ext = path.join(work, 'x', 'extension');
  for (const f of ['extension/package.json', 'extension/extension.js', 'extension/server.js',
    'extension/syntaxes/ndl.tmLanguage.json',
    'extension/node_modules/vscode-languageclient/package.json',
    'extension/node_modules/vscode-jsonrpc/package.json'])
    assert(names.includes(f), `${f} is in the .vsix`);
  assert(!names.some((n) => n.startsWith('extension/test/')), 'the tests are not packaged');
  const manifest = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));
  assert.deepStrictEqual(manifest.activationEvents, ['onLanguage:ndl']);
  assert(fs.existsSync(path.join(ext, manifest.main)), 'its main file is packaged');
  cp.execFileSync(process.execPath, ['--check', path.join(ext, 'extension.js')]);
  ok(`packaged: ${names.length} files, main ${manifest.main}, the language client included`);

  // The unpacked extension's own modules.
  const { serverCommand } = require(path.join(ext, 'server.js'));
  const rpc = require(path.join(ext, 'node_modules', 'vscode-jsonrpc', 'node'));
  assert.deepStrictEqual(serverCommand({}), { command: 'ndlc', args: ['lsp', '--stdio'] });
  assert.deepStrictEqual(serverCommand({ path: ' /x/ndlc ', stdlib: '/s' }),
    { command: '/x/ndlc', args: ['lsp', '--stdio', '--stdlib', '/s'] });
  const command = serverCommand({ path: path.resolve(NDLC) });
  const server = cp.spawn(command.command, command.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin));
  const diagnostics = new Promise((resolve) => conn.onNotification(
    'textDocument/publishDiagnostics', (p) => { if (p.diagnostics.length) resolve(p); }));
  conn.listen();

  const prog = path.join(work, 'prog.ndl');
  const text = ';; a mesh\n(Topology (Mesh 4 4))\n(FlowControlMethd Wormhole)\n' +
    '(NetworkChannelWidth 32bit)\n(NetworkFrequency 50MHz)\n(NetworkPacketSize 256bit)\n' +
    '(MessageCreationRate 1%)\n';
  fs.writeFileSync(prog, text);
  const init = await conn.sendRequest('initialize',
    { processId: process.pid, rootUri: 'file://' + work, capabilities: {} });
  assert(init.capabilities.hoverProvider && init.capabilities.definitionProvider);
  assert.strictEqual(init.serverInfo.name, 'ndlc');
  conn.sendNotification('initialized', {});
  ok(`the packaged extension's command started ${init.serverInfo.name} ${init.serverInfo.version}`);

  const uri = 'file://' + fs.realpathSync(prog);
  conn.sendNotification('textDocument/didOpen',
    { textDocument: { uri, languageId: 'ndl', version: 1, text } });
  const p = await diagnostics;
  const check = cp.spawnSync(NDLC, ['check', prog], { encoding: 'utf8' }).stderr;
  const m = /prog\.ndl:(\d+):(\d+): error: unknown form 'FlowControlMethd'/.exec(check);
  assert(m, 'ndlc check reports the form');
  const d = p.diagnostics[0];
  assert.strictEqual(d.code, 'unknown-form');
  assert.deepStrictEqual([d.range.start.line + 1, d.range.start.character + 1], [+m[1], +m[2]]);
  ok(`the diagnostic at ${m[1]}:${m[2]}, as ndlc check names it`);

  const hover = await conn.sendRequest('textDocument/hover',
    { textDocument: { uri }, position: { line: 4, character: 3 } });
  assert(/NetworkFrequency/.test(hover.contents.value), 'hover names the form');
  ok('hover answered');

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  assert.strictEqual(await exited, 0);
  ok('shutdown and exit: status 0');
  conn.dispose();
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((e) => {
  console.error('FAIL:', e && e.stack ? e.stack : e);
  process.exit(1);
});
