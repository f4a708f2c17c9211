// http_ece (Encrypted Content-Encoding for HTTP, RFC 8188) ships no types; the Web Push stand-in uses
// its `decrypt` only.
declare module 'http_ece' {
  export function decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
}
