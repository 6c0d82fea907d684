import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { randomBase62 } from '../../shared/random-id';

/**
 * Requests Node refuses before Express sees them (headers over 16 KB, raw bytes that are not HTTP): answered
 * in the envelope with a request id, like every other error, then the connection is closed.
 */
export function answerClientError(logger: Logger) {
  return (error: NodeJS.ErrnoException & { code?: string }, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const [status, reason, message] = tooLarge
      ? [431, 'Request Header Fields Too Large', 'Request headers are too large']
      : [400, 'Bad Request', 'Malformed HTTP request'];
    const requestId = `req_${randomBase62(20)}`;
    const body = JSON.stringify({ success: false, error: message });
    logger.info({ requestId, status, code: error.code }, 'malformed request refused');
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
