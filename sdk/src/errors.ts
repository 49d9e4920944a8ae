/** RFC 9457 problem document as the service sends it. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  /** Stable UPPER_SNAKE machine code (e.g. INSUFFICIENT_STOCK). */
  code: string;
  /** Validation failures: one per field path. */
  errors?: { path: string; message: string }[];
  requestId?: string;
  /** Extensions such as `currentStatus`, `currentVersion`, `problems`, `shortages`. */
  [extension: string]: unknown;
}

/** A non-2xx answer of the API, with its problem document. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId?: string;

  constructor(
    readonly problem: ProblemDocument,
    /** Seconds the server asked to wait (429/503), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`);
    this.name = 'ApiError';
    this.status = problem.status;
    this.code = problem.code;
    this.requestId = problem.requestId;
  }

  /** Field errors of a validation failure (empty otherwise). */
  get errors(): { path: string; message: string }[] {
    return this.problem.errors ?? [];
  }
}
