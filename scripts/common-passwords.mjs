// Writes src/modules/identity/common-passwords.txt, the list of passwords refused as too common (docs/dashboard.md).
// Source: the ranked password list of @zxcvbn-ts/language-common (MIT licence, © Dropbox and the zxcvbn-ts
// authors; a devDependency, so nothing of it runs in the service): its 10,000 most common entries, and every
// entry of 12 characters or more from the whole list (the length rule already refuses shorter ones), plus
// scripts/common-passwords-ours.txt, patterns we wrote. Run: node scripts/common-passwords.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const passwords = require('@zxcvbn-ts/language-common/dist/passwords.json.cjs');
const ranked = passwords.default ?? passwords;
const ours = fs.readFileSync(new URL('./common-passwords-ours.txt', import.meta.url), 'utf8').split('\n');
const chosen = [...ranked.slice(0, 10_000), ...ranked.filter((p) => [...p].length >= 12), ...ours]
  .map((p) => p.trim().toLowerCase())
  .filter(Boolean);
const unique = [...new Set(chosen)];
fs.writeFileSync(new URL('../src/modules/identity/common-passwords.txt', import.meta.url), `${unique.join('\n')}\n`);
console.log(`${unique.length} passwords written`);
