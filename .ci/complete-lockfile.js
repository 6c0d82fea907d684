// Usage: npm ci 2>&1 | node .ci/complete-lockfile.js  (after `npm install <pkg>` when npm ci reports "Missing: ... from lock file")
// Adds lock entries for optional platform binaries the registry mirror does not serve, tagged with
// os/cpu/libc so npm ci skips them on this platform without fetching them.
const fs = require('fs');
const missing = fs.readFileSync(0, 'utf8').split('\n').map(l => /Missing: (@?[^@\s]+)@(\S*) from lock file/.exec(l)).filter(Boolean);
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const osNames = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix', 'wasm32'];
const cpus = { arm64: 'arm64', x64: 'x64', arm: 'arm', ia32: 'ia32', ppc64: 'ppc64', s390x: 's390x', loong64: 'loong64', riscv64: 'riscv64', wasm32: 'wasm32' };
for (const [, name] of missing) {
  // find the parent that depends on it, to learn the version and dev flag
  let version, dev = false, parentKey;
  for (const [key, pkg] of Object.entries(lock.packages)) {
    const v = pkg.optionalDependencies?.[name];
    if (v) { version = v; dev = !!pkg.dev; parentKey = key; break; }
  }
  const tail = name.split('/').pop();
  const parts = tail.split('-');
  const os = parts.find(p => osNames.includes(p)) ?? (tail.includes('wasm32') ? null : null);
  const cpu = parts.map(p => p.replace(/eabihf|eabi/, '')).find(p => cpus[p]);
  const entry = { version, dev: dev || undefined, optional: true };
  if (os) entry.os = [os === 'wasm32' ? 'none' : os];
  if (cpu) entry.cpu = [cpu];
  if (!os && !cpu) entry.cpu = ['wasm32'];
  if (/musl/.test(tail)) entry.libc = ['musl'];
  else if (/gnu/.test(tail)) entry.libc = ['glibc'];
  lock.packages[`node_modules/${name}`] = JSON.parse(JSON.stringify(entry));
  console.log(name, JSON.stringify(entry), 'from', parentKey);
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
