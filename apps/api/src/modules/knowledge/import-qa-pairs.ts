import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import type { FormBody } from '../../lib/multipart.ts';
import { addItems } from './add-items.ts';
import { readQaCsv } from './read-qa-csv.ts';

/** Adds the pairs of a CSV file (the form's one `file`) as Q&A items, all of them or none. */
export async function importQaPairs(
  app: Ctx,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  form: FormBody,
) {
  const unexpected = [...Object.keys(form.fields), ...form.files.map((f) => f.field)].filter(
    (f) => f !== 'file',
  );
  if (unexpected.length) {
    throw new AppError('invalid', `Unexpected field: ${unexpected[0]}`, {
      [unexpected[0]!]: ['Unexpected field'],
    });
  }
  const file = form.files[0];
  if (!file || form.files.length > 1) {
    const message = file ? 'Send one file' : 'Required';
    throw new AppError('invalid', `file: ${message}`, { file: [message] });
  }
  return addItems(app, owner, readQaCsv(file.data));
}
