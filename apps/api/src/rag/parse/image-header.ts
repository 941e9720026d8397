/** The raster formats read with OCR, and their dimensions as their headers declare them. */
export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export const IMAGE_MIME_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/**
 * The format and declared size of a PNG, JPEG or WebP image, read from its header without
 * decoding a pixel: a 1 KB file may declare 50,000 × 50,000 pixels (10 GB once decoded), so the
 * size must be known before anything decodes it. Undefined when the header is missing or cut short.
 */
export function readImageHeader(data: Buffer): ImageHeader | undefined {
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) {
    // The first chunk is IHDR: width and height, 4 bytes each, big-endian.
    if (data.length < 24 || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { format: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data[0] === 0xff && data[1] === 0xd8) return jpegHeader(data);
  if (data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return webpHeader(data);
  return undefined;
}

/**
 * Whether the file reaches its end marker (PNG's IEND chunk, JPEG's end-of-image, WebP's declared
 * length): a decoder shows an image cut short as far as it goes, blank below, without an error.
 */
export function reachesItsEnd(data: Buffer, format: ImageFormat): boolean {
  switch (format) {
    case 'png':
      return data.includes('IEND', 8, 'latin1');
    case 'jpeg':
      return data.includes(JPEG_END, 2);
    case 'webp':
      return data.readUInt32LE(4) + 8 <= data.length;
  }
}

const JPEG_END = Buffer.from([0xff, 0xd9]);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A JPEG's size is in its start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC), after any others. */
function jpegHeader(data: Buffer): ImageHeader | undefined {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { format: 'jpeg', height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    if (length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X) each keep the size in their own way. */
function webpHeader(data: Buffer): ImageHeader | undefined {
  if (data.length < 30) return undefined;
  const chunk = data.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    return { format: 'webp', width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    const bits = data.readUInt32LE(21);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { format: 'webp', width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  }
  return undefined;
}
