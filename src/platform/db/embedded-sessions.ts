import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite's one backend shared by many client connections, sound for the extended query protocol
 * (docs/decisions/0021-embedded-sessions.md). PGlite runs one session; pglite-socket forwards each message as it comes,
 * so two connections' Parse/Bind/Execute interleave and one reads the other's unnamed statement. Here a connection owns
 * the backend from its first message until its Sync or simple Query has run with no transaction left open; the others
 * wait their turn. A connection that leaves inside a transaction has it rolled back.
 */
export async function serveEmbeddedSessions(db: PGlite, port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const turns = new Turns();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    serveConnection(db, turns, socket).finally(() => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Messages after which the backend answers ReadyForQuery: a turn may end there. */
const TURN_ENDS = new Set(['S'.charCodeAt(0), 'Q'.charCodeAt(0)]);
const TERMINATE = 'X'.charCodeAt(0);

async function serveConnection(db: PGlite, turns: Turns, socket: net.Socket): Promise<void> {
  const connection = Symbol('connection');
  const reader = new MessageReader(socket);
  const write = (data: Uint8Array) => {
    if (socket.writable) socket.write(data);
  };
  try {
    for (let started = false; ;) {
      const startup = !started;
      const message = await reader.next(startup);
      if (!message) break;
      if (startup) {
        const code = message.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          write(Buffer.from('N'));
          continue;
        }
        if (code === CANCEL_REQUEST) break;
        started = true;
      } else if (message[0] === TERMINATE) break;
      await turns.take(connection);
      await db.runExclusive(() => db.execProtocolRawStream(new Uint8Array(message), { onRawData: write }));
      if ((startup || TURN_ENDS.has(message[0])) && !db.isInTransaction()) turns.give(connection);
    }
  } catch {
    // A broken connection: what it held is given back below.
  } finally {
    if (turns.isHeldBy(connection)) {
      if (db.isInTransaction()) await db.exec('ROLLBACK').catch(() => undefined);
      turns.give(connection);
    }
    socket.destroy();
  }
}

/** Whose turn it is at the one backend: a connection keeps it across its transaction; the others queue. */
class Turns {
  private holder: symbol | null = null;
  private waiting: { connection: symbol; start(): void }[] = [];

  take(connection: symbol): Promise<void> {
    if (this.holder === connection) return Promise.resolve();
    if (this.holder === null) {
      this.holder = connection;
      return Promise.resolve();
    }
    return new Promise((start) => this.waiting.push({ connection, start }));
  }

  give(connection: symbol): void {
    if (this.holder !== connection) return;
    const next = this.waiting.shift();
    this.holder = next?.connection ?? null;
    next?.start();
  }

  isHeldBy(connection: symbol): boolean {
    return this.holder === connection;
  }
}

/** Reads whole protocol messages off a socket: the startup packet (length first) or a typed message. */
class MessageReader {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    const end = () => {
      this.ended = true;
      this.wake?.();
    };
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', end);
  }

  async next(startup: boolean): Promise<Buffer | null> {
    for (;;) {
      const length = this.wholeLength(startup);
      if (length !== null) {
        const message = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        return Buffer.from(message);
      }
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  private wholeLength(startup: boolean): number | null {
    const header = startup ? 4 : 5;
    if (this.buffer.length < header) return null;
    const length = startup ? this.buffer.readInt32BE(0) : 1 + this.buffer.readInt32BE(1);
    return this.buffer.length >= length ? length : null;
  }
}
