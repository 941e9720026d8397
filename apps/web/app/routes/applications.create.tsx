import { ZCreateApplicationForm } from '@cairn/contracts/applications';
import { data, redirect } from 'react-router';
import { apiFor } from '../lib/api.server';
import { apiFailure, parseForm } from '../lib/form-data.server';
import { readAuthToken } from '../lib/session.server';
import type { Application } from '../lib/types';
import type { Route } from './+types/applications.create';

/** POST only: creates an application (multipart `name`, trimmed, plus knowledge drafts) and opens it. */
export async function action(args: Route.ActionArgs) {
  if (!readAuthToken(args.request)) throw redirect('/login');
  const parsed = await parseForm(args.request, ZCreateApplicationForm);
  if (!parsed.ok) return parsed.response;
  const body = new FormData();
  body.set('name', parsed.value.name);
  // Knowledge drafts (items[i].type + items[i].file | items[i].value) go to the API as they came;
  // a file input left empty is dropped, so the API names it as required.
  const itemFields: string[] = [];
  for (const [key, value] of parsed.form.entries()) {
    if (!key.startsWith('items[')) continue;
    itemFields.push(key.replace(/\.type$/, '.value'), key.replace(/\.type$/, '.file'));
    if (typeof value !== 'string' && value.size === 0 && !value.name) continue;
    body.append(key, value);
  }
  try {
    const created = await apiFor(args).post<Application>('/api/applications/', body);
    return redirect(`/applications/${created.uuid}`);
  } catch (error) {
    return apiFailure(error, ['name', ...new Set(itemFields)]);
  }
}

/** Not a page: a GET here is not found like any other unknown path. */
export function loader() {
  throw data(null, { status: 404 });
}

/** Never rendered: the loader answers 404, so GET shows the 404 page. */
export default function FormEndpoint() {
  return null;
}
