import { data } from 'react-router';

/** Every path no route matches: the 404 page, with status 404 from SSR. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
