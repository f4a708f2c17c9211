// The generated avatar behind `fallback_avatar_url`: a 5×5 mirrored identicon whose pattern and colour
// come from the SHA-256 of the username, so it never changes and needs no storage.
import { createHash } from 'node:crypto';

const GRID = 5;
const CELL = 48;
const MARGIN = 24;

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function identiconSvg(username: string): string {
  const digest = createHash('sha256').update(username).digest();
  const hue = ((digest[0]! << 8) | digest[1]!) % 360;
  const colour = hslToHex(hue, 0.55, 0.5);
  const cells: string[] = [];
  // Only the left three columns are drawn from the hash; the right two mirror them.
  for (let row = 0; row < GRID; row++) {
    for (let col = 0; col < Math.ceil(GRID / 2); col++) {
      const bit = row * 3 + col;
      if ((digest[2 + (bit >> 3)]! >> (bit & 7)) & 1) {
        for (const x of new Set([col, GRID - 1 - col])) {
          cells.push(
            `<rect x="${MARGIN + x * CELL}" y="${MARGIN + row * CELL}" width="${CELL}" height="${CELL}"/>`,
          );
        }
      }
    }
  }
  const size = GRID * CELL + 2 * MARGIN;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" fill="#f2f2f2"/>` +
    `<g fill="${colour}">${cells.join('')}</g></svg>`
  );
}
