// The method table of POST /xmlrpc: every method docs/api/publishing.md lists, with its parameter count. A call is
// checked against the table (unknown → −32601, wrong count → −32602) before the method runs.
import type { CallContext, MethodDef, MethodTable } from './call.js';
import { bloggerMethods } from './methods-blogger.js';
import { mtMethods } from './methods-mt.js';
import { pageMethods } from './methods-pages.js';
import { postMethods } from './methods-posts.js';
import { FAULT, XmlRpcFault, type MethodCall, type XmlRpcOut } from './values.js';

const listMethods: MethodDef = {
  params: [0, 0],
  run: async () => Object.keys(METHODS).sort(),
};

export const METHODS: MethodTable = Object.freeze({
  ...postMethods,
  ...pageMethods,
  ...bloggerMethods,
  ...mtMethods,
  'system.listMethods': listMethods,
  'mt.supportedMethods': listMethods,
});

const NO_LOGIN = new Set(['system.listMethods', 'mt.supportedMethods', 'mt.supportedTextFilters']);
/** Methods whose login moves with their parameter count: checked once the call is read. */
const LOGIN_AFTER_READING = new Set(['metaWeblog.deletePost']);
const MEDIA_UPLOADS = new Set(['metaWeblog.newMediaObject', 'service.newMediaObject']);

/**
 * Where a method's username and token are: parameters 1 and 2 (after the site or post id, or the
 * Blogger app key), except blogger.deletePost (app key, post id, username, token). Undefined for
 * unknown methods, those without a login, and metaWeblog.deletePost (with or without an app key first:
 * its login is checked when the whole call has been read).
 */
export function loginPositions(methodName: string): readonly [number, number] | undefined {
  if (
    !Object.prototype.hasOwnProperty.call(METHODS, methodName) ||
    NO_LOGIN.has(methodName) ||
    LOGIN_AFTER_READING.has(methodName)
  )
    return undefined;
  return methodName === 'blogger.deletePost' ? [2, 3] : [1, 2];
}

/** Methods whose body may be large (docs/api/publishing.md, "Limits"). */
export function isMediaUpload(methodName: string): boolean {
  return MEDIA_UPLOADS.has(methodName);
}

export async function dispatch(call: MethodCall, context: CallContext): Promise<XmlRpcOut> {
  const def = Object.prototype.hasOwnProperty.call(METHODS, call.methodName)
    ? METHODS[call.methodName]
    : undefined;
  if (!def) throw new XmlRpcFault(FAULT.unknownMethod, `Unknown method: ${call.methodName.slice(0, 100)}`);
  const [min, max] = def.params;
  const count = call.params.length;
  if (count < min || count > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new XmlRpcFault(
      FAULT.badParams,
      `Wrong number of parameters: ${call.methodName} takes ${expected}, got ${count}.`,
    );
  }
  return def.run(call.params, context);
}
