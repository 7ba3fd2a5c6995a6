#!/usr/bin/env node
// zoneline's npm launcher. The binaries come in one optional dependency per platform
// (zoneline-linux-x64, zoneline-darwin-arm64, zoneline-win32-x64, ...); npm installs only the one
// that matches this machine, with no download at install time and no postinstall script. This
// file finds it and runs it with the same arguments, stdio and environment.
//
// Only commands a person runs go through here (zoneline install, doctor, ...): `zoneline install`
// registers the native binary's own path in Claude Code's settings, so the status line and the
// hooks never start node.
'use strict';

const path = require('path');
const { spawnSync } = require('child_process');

const exe = process.platform === 'win32' ? '.exe' : '';
const pkg = 'zoneline-' + process.platform + '-' + process.arch;

function fail(msg) {
  process.stderr.write('zoneline: ' + msg + '\n');
  process.exit(1);
}

let dir;
try {
  dir = path.dirname(require.resolve(pkg + '/package.json'));
} catch (e) {
  fail('no binary for ' + process.platform + '/' + process.arch + ': the optional dependency ' + pkg +
    ' is not installed (npm skips optional dependencies with --omit=optional or --no-optional).\n' +
    'Reinstall with `npm i -g zoneline`, or take a release archive from the project\'s releases.');
}

const bin = path.join(dir, 'zoneline' + exe);
const r = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
if (r.error) {
  fail('cannot run ' + bin + ': ' + r.error.message);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status === null ? 1 : r.status);
