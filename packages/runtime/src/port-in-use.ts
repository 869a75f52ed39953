/**
 * A port a service was told to listen on is taken. Its message is one line naming
 * the variable that sets the port, so start-up ends with what to change instead of
 * a stack trace (describeBootError prints it as it is).
 */
export class PortInUseError extends Error {
  readonly code = 'PORT_IN_USE';

  constructor(
    /** The variable that sets the port: API_PORT, INGEST_PORT, SANDBOX_PORT, METRICS_PORT. */
    readonly variable: string,
    readonly host: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(
      `${variable}: port ${port} on ${host} is already in use (another touchbase still running, or another program); stop it or set ${variable} to a free port`,
      options,
    );
    this.name = 'PortInUseError';
  }
}

/**
 * Runs `listen` (Fastify's `app.listen`, a server's start) and turns EADDRINUSE into
 * a {@link PortInUseError} naming `variable`; any other error passes unchanged.
 */
export async function listenNamed<T>(
  variable: string,
  where: { host: string; port: number },
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new PortInUseError(variable, where.host, where.port, { cause: err });
    throw err;
  }
}
