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
 * files. The whole body is read before anything is written, so a broken body changes nothing.
 * Oversized files and fields are a 413 naming the field; a body the parser cannot read to its end
 * (truncated, no closing boundary, malformed part headers) is a 400.
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
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw tooLarge(part.fieldname, 'The value is too long.');
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const data = await part.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(part.fieldname, 'The file is too large.');
        throw error;
      });
      files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
    }
  } catch (error) {
    // Limits (413) and prototype-pollution attempts (400) already carry their status.
    if (error instanceof AppError || isClientError(error)) throw error;
    // Whatever else the parser throws is about the bytes the client sent (busboy's "Unexpected
    // end of form", "Malformed part header" …): nothing was read, so nothing was written.
    throw new AppError(
      'invalid',
      'The multipart/form-data body could not be read: it is incomplete or malformed.',
    );
  }
  return { fields, files };
}

function tooLarge(field: string, message: string) {
  return new AppError('payload_too_large', `${field}: ${message}`, { [field]: [message] });
}

function isClientError(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
