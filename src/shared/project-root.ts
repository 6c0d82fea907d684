import fs from 'node:fs';
import path from 'node:path';

/** The folder holding package.json, whether code runs from src/ (tests) or dist/src/ (build). */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot(__dirname);
