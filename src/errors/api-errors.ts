import { ErrorCode } from "./codes.js";
import { networkCauseOf } from "./network-cause.js";
import { PlatformError, type PlatformErrorOptions } from "./platform-error.js";

/** What the client knows about a failed HTTP exchange. */
export interface ApiErrorInfo {
  method: string;
  path: string;
  status: number;
  /** The platform's error `code`, when the body had one. */
  apiCode?: string;
  /** The platform's error message (at most 500 characters of a non-JSON body). */
  apiMessage?: string;
  /** The API's own hint, when the body had one. */
  apiHint?: string;
  requestId: string;
  attempts: number;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  423: ErrorCode.LOCKED,
  429: ErrorCode.RATE_LIMITED,
};

const HINT_BY_CODE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.UNAUTHORIZED]: "Check the API key (SVC_API_KEY or --api-key).",
  [ErrorCode.FORBIDDEN]: "The API key lacks permission for this project.",
  [ErrorCode.NOT_FOUND]: "Check the project and branch ids.",
  [ErrorCode.LOCKED]: "Another operation is running on the project; try again when it finishes.",
  [ErrorCode.RATE_LIMITED]: "The platform is rate limiting requests; try again later.",
  [ErrorCode.SERVER_ERROR]: "The platform failed; try again later.",
};

/** The error code for an HTTP status after retries. */
export function errorCodeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? ErrorCode.SERVER_ERROR : ErrorCode.API_ERROR);
}

/** The platform answered with an error status (after retries, where they apply). */
export class ApiError extends PlatformError {
  readonly status: number;
  readonly apiCode: string | undefined;
  readonly requestId: string;

  constructor(info: ApiErrorInfo, options: { code?: ErrorCode; cause?: unknown; reason?: string } = {}) {
    const code = options.code ?? errorCodeForStatus(info.status);
    const platform = info.apiMessage ? `: ${info.apiMessage}` : "";
    const hint = HINT_BY_CODE[code];
    super(
      code,
      `${info.method} ${info.path} failed with HTTP ${info.status}${platform} (request id ${info.requestId})` +
        (hint ? `. ${hint}` : ""),
      { details: { ...info, reason: options.reason }, cause: options.cause },
    );
    this.status = info.status;
    this.apiCode = info.apiCode;
    this.requestId = info.requestId;
  }
}

/**
 * No response to a read, after retries (`PLATFORM_NETWORK_ERROR`). The message names the
 * innermost cause (`connect ECONNREFUSED 127.0.0.1:45999`); a request that never reached a
 * server (refused, unknown host) carries no request id, since no server could have logged it.
 * `host`, the origin tried, is named when given.
 */
export class NetworkError extends PlatformError {
  constructor(info: { method: string; path: string; host?: string; requestId: string; attempts: number }, cause?: unknown) {
    const why = cause === undefined ? undefined : networkCauseOf(cause);
    const reached = why?.reachedServer !== false;
    const on = info.host === undefined ? "" : ` on ${info.host}`;
    super(
      ErrorCode.NETWORK_ERROR,
      `${info.method} ${info.path}${on} got no response after ${info.attempts} attempt(s)${why ? `: ${why.text}` : ""}` +
        `${reached ? ` (request id ${info.requestId})` : ""}. Check the API host and your network or proxy settings.`,
      {
        details: reached ? info : { method: info.method, path: info.path, ...(info.host === undefined ? {} : { host: info.host }), attempts: info.attempts, cause: why?.code ?? null },
        cause,
      },
    );
  }
}

/**
 * A mutation got no usable response (`PLATFORM_OUTCOME_UNKNOWN`): it may or may not have been
 * applied, so it is never retried blindly. Without a status, the message names the innermost
 * cause, as {@link NetworkError}'s does (`connect EMFILE …`, `socket hang up`, a time limit).
 */
export class OutcomeUnknownError extends PlatformError {
  readonly requestId: string;

  constructor(info: { method: string; path: string; requestId: string; status?: number }, cause?: unknown) {
    const why = info.status === undefined && cause !== undefined ? networkCauseOf(cause).text : undefined;
    const got = info.status === undefined ? `got no response${why === undefined ? "" : `: ${why}`}` : `got HTTP ${info.status}`;
    super(
      ErrorCode.OUTCOME_UNKNOWN,
      `${info.method} ${info.path} ${got} (request id ${info.requestId}); it may or may not have been applied. ` +
        "Run plan to see the branch's state, then apply again.",
      { details: info, cause },
    );
    this.requestId = info.requestId;
  }
}

/** A read, an operation wait or a build wait hit its time limit (`PLATFORM_TIMEOUT`). */
export class TimeoutError extends PlatformError {
  constructor(info: { waitingFor: string; id?: string; limitMs: number }, options: PlatformErrorOptions = {}) {
    const id = info.id === undefined ? "" : ` ${info.id}`;
    super(
      ErrorCode.TIMEOUT,
      `Timed out after ${info.limitMs} ms waiting for ${info.waitingFor}${id}. ` +
        "Raise the matching `timeouts` option or try again later.",
      { details: { ...info, ...(options.details ?? {}) }, cause: options.cause },
    );
  }
}

/** A feature is not offered for this project, region or plan (`PLATFORM_FEATURE_UNAVAILABLE`). */
export class FeatureUnavailableError extends PlatformError {
  constructor(info: { feature: string; reason: string; status: number; requestId: string }) {
    super(ErrorCode.FEATURE_UNAVAILABLE, `${info.feature} is not available here: ${info.reason} (request id ${info.requestId}).`, {
      details: info,
    });
  }
}
