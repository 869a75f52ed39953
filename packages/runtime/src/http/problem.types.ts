/** One field that failed validation, as problem+json `errors` entries carry it. */
export type FieldError = { field: string; message: string };

/** An RFC 9457 problem document. */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
};
