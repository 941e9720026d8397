import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface FormBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/**
 * Reads a multipart/form-data body (or a JSON object, for API clients) into plain fields and
 * files. Oversized files are a 413 naming the field.
 */
export async function readForm(request: FastifyRequest): Promise<FormBody> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body))
      throw new AppError('invalid', 'Expected a JSON object.');
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
    return { fields, files: [] };
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    const data = await part.toBuffer().catch((error: { code?: string }) => {
      if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new AppError('payload_too_large', `${part.fieldname}: the file is too large.`, {
          [part.fieldname]: ['The file is too large.'],
        });
      }
      throw error;
    });
    files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
  }
  return { fields, files };
}
