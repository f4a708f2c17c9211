// XML-RPC values as the codec hands them over (docs/api/conventions.md, "XML-RPC values"): ints and doubles as numbers, strings, booleans,
// dates, base64 as bytes, arrays, structs as Maps (so a member named `__proto__` is just a key), nil as null.
export type XmlRpcValue = string | number | boolean | Date | Buffer | null | XmlRpcValue[] | XmlRpcStruct;

export type XmlRpcStruct = Map<string, XmlRpcValue>;

export interface MethodCall {
  methodName: string;
  params: XmlRpcValue[];
}

/** What the encoder accepts: the above, plus plain objects of our own making as structs. */
export type XmlRpcOut =
  | string
  | number
  | boolean
  | Date
  | Buffer
  | XmlRpcOut[]
  | Map<string, XmlRpcOut>
  | { [member: string]: XmlRpcOut };

export const FAULT = {
  notWellFormed: -32700,
  invalidRequest: -32600,
  unknownMethod: -32601,
  badParams: -32602,
} as const;

/** A fault to send as the method response (HTTP 200). */
export class XmlRpcFault extends Error {
  constructor(
    readonly faultCode: number,
    readonly faultString: string,
  ) {
    super(faultString);
    this.name = 'XmlRpcFault';
  }
}

export function isStruct(value: XmlRpcValue | undefined): value is XmlRpcStruct {
  return value instanceof Map;
}
