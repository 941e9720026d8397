import { isIP } from 'node:net';

/**
 * The client address as limits count it: an IPv4 address as is (also when written IPv4-mapped), an
 * IPv6 address by its /64, since one subscriber usually holds a whole /64 and could otherwise rotate
 * through its addresses to escape a per-address limit.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const bare = ip.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return ip;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  // Groups after `::` are only needed to know how many zeros it stands for; the /64 is the first four.
  const right = tail === undefined ? [] : groups(tail).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const all =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
