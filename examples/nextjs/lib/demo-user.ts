import { cookies } from 'next/headers';

const COOKIE = 'demo-user';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The user of this request, as the server knows them. The example has no sign-in, so each browser gets an anonymous
 * id in an HTTP-only cookie the server issues (a random UUID: guessing another's is as hard as guessing a session).
 * A real app returns the signed-in user's id from its session here (Auth.js, Clerk, ...). Never take a user id from
 * the request body or the URL.
 */
export async function demoUser(): Promise<string> {
  const jar = await cookies();
  const known = jar.get(COOKIE)?.value;
  if (known !== undefined && UUID.test(known)) return known;
  const issued = crypto.randomUUID();
  jar.set(COOKIE, issued, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 60 * 60 * 24 * 365 });
  return issued;
}
