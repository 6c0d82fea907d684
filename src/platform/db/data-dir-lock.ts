import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from '../../shared/startup-error';

/** Who holds the embedded data directory; `url` is set once a service serves its database on loopback. */
export interface DataDirOwner {
  pid: number;
  role: 'service' | 'cli';
  url?: string;
}

export interface DataDirLock {
  /** Records where the owner serves the database, for the CLI to connect through. */
  publish(url: string): void;
  release(): void;
}

const LOCK_FILE = 'owner.json';

/**
 * One process owns the embedded database's files: PGlite in two processes would each keep their own
 * copy and overwrite the other's writes. The lock is a file created exclusively (`wx`) holding the
 * owner's pid; a lock whose process is gone (killed, crashed) is stale and taken over. The pid check
 * is immediate, unlike a lock that goes stale after some seconds without a heartbeat.
 */
export function lockDataDir(dataDir: string, role: DataDirOwner['role']): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const owner: DataDirOwner = { pid: process.pid, role };
  while (!tryCreate(file, owner)) {
    const holder = readOwner(dataDir);
    if (holder && isAlive(holder.pid)) throw new StartupError(busyMessage(dataDir, holder));
    removeIfUnchanged(file, holder);
  }
  return {
    publish(url) {
      fs.writeFileSync(file, JSON.stringify({ ...owner, url }));
    },
    release() {
      if (readOwner(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
    },
  };
}

/** The live owner of the data directory, or undefined when nobody (or only a dead process) holds it. */
export function liveOwner(dataDir: string): DataDirOwner | undefined {
  const holder = readOwner(dataDir);
  return holder && isAlive(holder.pid) ? holder : undefined;
}

export function busyMessage(dataDir: string, holder: DataDirOwner): string {
  const who = holder.role === 'service' ? 'a running service' : 'a CLI command';
  return `The embedded database in ${dataDir} is in use by ${who} (pid ${holder.pid}); stop it or wait for it, or set DATABASE_URL.`;
}

function tryCreate(file: string, owner: DataDirOwner): boolean {
  try {
    fs.writeFileSync(file, JSON.stringify(owner), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readOwner(dataDir: string): DataDirOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as DataDirOwner;
  } catch {
    return undefined; // gone in the meantime, or half-written by a process that died: both are free
  }
}

/**
 * Removes a stale lock only if it is still the one judged stale, so a fresh owner's lock survives. An
 * unreadable lock is either being written this instant or left half-written by a crash: it is removed
 * once it is a few seconds old.
 */
function removeIfUnchanged(file: string, stale: DataDirOwner | undefined): void {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return; // already gone: try to create it again
  }
  if (stale ? text === JSON.stringify(stale) : Date.now() - fs.statSync(file).mtimeMs > 3000) fs.rmSync(file, { force: true });
  else if (!stale) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}
