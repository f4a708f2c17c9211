// The method table of POST /xmlrpc: every method publishing.md lists, with its parameter count. A call is
// checked against the table (unknown → −32601, wrong count → −32602) before the method runs.
import type { CallContext, MethodDef, MethodTable } from './call.js';
import { bloggerMethods } from './methods-blogger.js';
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
  'system.listMethods': listMethods,
  'mt.supportedMethods': listMethods,
});

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
