import { DomainError, domainError } from '../../shared/errors';
import { JSON_BODY_MAX_BYTES } from '../../shared/limits';

/** The JSON body limit of every endpoint that reads one (the REST facade and /graphql), in bytes. */
export const JSON_BODY_LIMIT = JSON_BODY_MAX_BYTES;

/** Errors of express.json(), labelled with a `type`, mapped to documented answers. */
const BODY_PARSER_ERRORS: Record<string, DomainError> = {
  'entity.parse.failed': domainError('INVALID_JSON'),
  'entity.too.large': domainError('BODY_TOO_LARGE'),
  'encoding.unsupported': domainError('UNSUPPORTED_CONTENT_ENCODING'),
  'charset.unsupported': domainError('UNSUPPORTED_MEDIA_TYPE'),
  'request.aborted': domainError('INVALID_JSON'),
  'request.size.invalid': domainError('INVALID_JSON'),
};

/**
 * The answer for a request body Express could not read, or undefined when the error is something else.
 * A body whose `Content-Encoding` does not decode (gzip, deflate or br that is not) comes as a bare 400
 * carrying zlib's error number: the body is not readable JSON.
 */
export function bodyError(error: unknown): DomainError | undefined {
  const { type, status, errno } = (error ?? {}) as { type?: unknown; status?: unknown; errno?: unknown };
  if (typeof type === 'string') return BODY_PARSER_ERRORS[type];
  return status === 400 && typeof errno === 'number' ? domainError('INVALID_JSON') : undefined;
}
