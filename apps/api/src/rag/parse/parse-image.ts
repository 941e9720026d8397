import type { ParsedDocument } from '../types.ts';
import { normalizeText } from './decode-text.ts';
import { reachesItsEnd, readImageHeader } from './image-header.ts';
import { type OcrLimits, OcrReader, ocrScale } from './ocr.ts';
import { ParseError } from './parse-error.ts';
import { megabytes } from './parse-limits.ts';

/**
 * A PNG, JPEG or WebP image → its text, read with OCR (one section, no page). The file size and
 * the pixel count its header declares are checked before a pixel is decoded; the image is then
 * decoded with @napi-rs/canvas onto white (a transparent background would read as black), scaled
 * down to OCR_MAX_PIXELS, and handed to the OCR engine as a PNG.
 */
export async function parseImage(data: Buffer, limits: OcrLimits): Promise<ParsedDocument> {
  if (data.length > limits.maxImageBytes) {
    throw new ParseError(
      'too_large',
      `This image is ${megabytes(data.length)}; an image may be at most ${megabytes(limits.maxImageBytes)}. Save it smaller or as a JPEG.`,
    );
  }
  const header = readImageHeader(data);
  if (!header || header.width === 0 || header.height === 0) throw corruptImage();
  checkPixels(header.width, header.height, limits.maxImagePixels);
  if (!reachesItsEnd(data, header.format)) throw corruptImage();
  const png = await flatten(data);
  const reader = new OcrReader(limits);
  try {
    const text = normalizeText(await reader.read(png, 'this image'));
    if (!text) {
      throw new ParseError('empty', 'No text was found in this image with OCR (text recognition).');
    }
    return { title: '', sections: [{ text }], readWithOcr: true };
  } finally {
    await reader.close();
  }
}

/**
 * Refuses an image of more than `maxPixels` (decoded, each pixel takes 4 bytes): an image file,
 * or one held in a scanned PDF (`inPdf`).
 */
export function checkPixels(width: number, height: number, maxPixels: number, inPdf = false): void {
  if (width * height <= maxPixels) return;
  const size = `${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels`;
  throw new ParseError(
    'too_large',
    `${inPdf ? `This PDF holds an image of ${size}` : `This image is ${size}`}; an image read with OCR may have at most ${(maxPixels / 1e6).toLocaleString('en')} million pixels. Scale it down and upload it again.`,
  );
}

async function flatten(data: Buffer): Promise<Buffer> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(data).catch(() => {
    throw corruptImage();
  });
  if (!image.width || !image.height) throw corruptImage();
  const scale = ocrScale(image.width, image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, width, height);
  context.drawImage(image, 0, 0, width, height);
  return canvas.encode('png');
}

const corruptImage = () =>
  new ParseError('corrupt', 'This image is corrupt or incomplete and cannot be read.');
