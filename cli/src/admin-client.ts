// The murmur CLI's view of identity's admin API. It speaks HTTP to the gateway (or to identity itself),
// so the same commands work against a local single process and a remote deployment.
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

export interface AdminClient {
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: Record<string, unknown>,
  ): Promise<T>;
  /** POST of a file's bytes as they are (streamed from disk), e.g. an archive import. */
  upload<T = unknown>(path: string, file: Blob, contentType: string): Promise<T>;
}

export function adminClient(baseUrl: string, token: string): AdminClient {
  const base = baseUrl.replace(/\/+$/, '');
  const client: AdminClient & {
    send<T>(
      method: string,
      path: string,
      contentType: string | undefined,
      body: string | Blob | null,
    ): Promise<T>;
  } = {
    call<T>(method: string, path: string, body?: Record<string, unknown>): Promise<T> {
      return client.send<T>(
        method,
        path,
        body ? 'application/json' : undefined,
        body ? JSON.stringify(body) : null,
      );
    },
    upload<T>(path: string, file: Blob, contentType: string): Promise<T> {
      return client.send<T>('POST', path, contentType, file);
    },
    async send<T>(
      method: string,
      path: string,
      contentType: string | undefined,
      body: string | Blob | null,
    ): Promise<T> {
      let res: Response;
      try {
        res = await fetch(base + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(contentType ? { 'content-type': contentType } : {}),
          },
          body,
        });
      } catch (err) {
        throw new AdminApiError(0, `cannot reach ${base}: ${(err as Error).cause ?? (err as Error).message}`);
      }
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch {
        parsed = undefined;
      }
      if (!res.ok) {
        const message =
          parsed && typeof parsed === 'object' && 'error' in parsed
            ? String((parsed as { error: unknown }).error)
            : text;
        throw new AdminApiError(res.status, `${res.status}: ${message}`);
      }
      return parsed as T;
    },
  };
  return client;
}
