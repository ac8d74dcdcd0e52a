import { Address6 } from 'ip-address';

/**
 * The address a budget belongs to: the request limit's, the failed sign-ins' and the reset
 * requests'. An IPv6 client usually holds a whole /64 and could rotate through it, so the budget is
 * the /64's; an IPv4 address mapped into IPv6 is that IPv4 address.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  try {
    const address = new Address6(ip);
    if (address.isMapped4()) return address.to4().correctForm();
    return new Address6(`${ip}/64`).startAddress().correctForm();
  } catch {
    return ip;
  }
}
