// The XML-RPC response encoder (docs/api/conventions.md, "XML-RPC values"): UTF-8 with an XML declaration, text escaped, characters
// XML 1.0 forbids stripped from every string, dates in the basic UTC form, structs in member order.
import { formatXmlRpcTime } from '@murmur/core';
import { escapeXmlText } from '../xml-text.js';
import type { XmlRpcOut } from './values.js';

function encodeValue(value: XmlRpcOut): string {
  if (typeof value === 'string') return `<value><string>${escapeXmlText(value)}</string></value>`;
  if (typeof value === 'boolean') return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31)
      return `<value><int>${value}</int></value>`;
    if (!Number.isFinite(value)) throw new TypeError('XML-RPC cannot carry a non-finite number');
    return `<value><double>${value}</double></value>`;
  }
  if (value instanceof Date)
    return `<value><dateTime.iso8601>${formatXmlRpcTime(value)}</dateTime.iso8601></value>`;
  if (Buffer.isBuffer(value)) return `<value><base64>${value.toString('base64')}</base64></value>`;
  if (Array.isArray(value))
    return `<value><array><data>${value.map(encodeValue).join('')}</data></array></value>`;
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  const members = entries
    .map(([name, v]) => `<member><name>${escapeXmlText(name)}</name>${encodeValue(v)}</member>`)
    .join('');
  return `<value><struct>${members}</struct></value>`;
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function encodeResponse(value: XmlRpcOut): string {
  return `${DECLARATION}<methodResponse><params><param>${encodeValue(value)}</param></params></methodResponse>\n`;
}

export function encodeFault(faultCode: number, faultString: string): string {
  const fault = encodeValue({ faultCode, faultString });
  return `${DECLARATION}<methodResponse><fault>${fault}</fault></methodResponse>\n`;
}

/** A <methodCall> (tests and tools speak to the endpoint with it). */
export function encodeMethodCall(methodName: string, params: XmlRpcOut[]): string {
  const body = params.map((p) => `<param>${encodeValue(p)}</param>`).join('');
  return `${DECLARATION}<methodCall><methodName>${escapeXmlText(methodName)}</methodName><params>${body}</params></methodCall>\n`;
}
