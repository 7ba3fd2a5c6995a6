#!/usr/bin/env node
// zoneline's npm launcher. The binaries come in one optional dependency per platform
// (zoneline-linux-x64, zoneline-darwin-arm64, zoneline-win32-x64, ...); npm installs only the one
// that matches this machine, with no download at install time and no postinstall script. This
// file finds it and runs it with the same arguments, stdio and environment, passing on the
// signals it gets and the child's exit status.
//
// Only commands a person runs go through here (zoneline install, doctor, ...): `zoneline install`
// registers the native binary's own path in Claude Code's settings, so the status line and the
// hooks never start node.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

// The platforms the release builds (internal/release/npmprep: Platforms).
const platforms = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];
const platform = process.platform + '-' + process.arch;
const exe = process.platform === 'win32' ? '.exe' : '';
const pkg = 'zoneline-' + platform;
const version = require('../package.json').version;

function fail(msg) {
  process.stderr.write('zoneline: ' + msg + '\n');
  process.exit(1);
}

if (!platforms.includes(platform)) {
  fail('no binary is built for ' + platform + ' (there are ' + platforms.join(', ') + ')');
}
// findPackage finds the platform package where npm, pnpm, yarn or bun put it beside this one:
// the node_modules folders from this package's own up to the root, in node's order. Never
// through NODE_PATH or node's global folders ($HOME/.node_modules, …), which require.resolve
// also searches: an environment pointing those elsewhere cannot choose the program run here.
function findPackage(name) {
  for (let d = path.resolve(__dirname, '..'); ; d = path.dirname(d)) {
    if (path.basename(d) !== 'node_modules') {
      const cand = path.join(d, 'node_modules', name);
      if (fs.existsSync(path.join(cand, 'package.json'))) {
        return cand;
      }
    }
    if (path.dirname(d) === d) {
      return '';
    }
  }
}

const dir = findPackage(pkg);
if (dir === '') {
  fail('no binary for ' + platform + ': the optional dependency ' + pkg +
    ' is not installed (npm skips optional dependencies with --omit=optional or --no-optional).\n' +
    'Reinstall with `npm i -g zoneline`, or take a release archive from the project\'s releases.');
}
const got = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
if (got !== version) {
  fail(pkg + ' is ' + got + ' but zoneline is ' + version + ': reinstall with `npm i -g zoneline@' + version + '`');
}

const bin = path.join(dir, 'zoneline' + exe);
const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
const forward = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
for (const sig of forward) {
  process.on(sig, () => { try { child.kill(sig); } catch (e) { /* gone already */ } });
}
child.on('error', (e) => fail('cannot run ' + bin + ': ' + e.message));
child.on('exit', (code, signal) => {
  if (signal) {
    for (const sig of forward) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
