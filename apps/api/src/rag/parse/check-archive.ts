import yauzl from 'yauzl';
import { ParseError } from './parse-error.ts';
import { MAX_COMPRESSION_RATIO, megabytes, RATIO_CHECKED_ABOVE_BYTES } from './parse-limits.ts';

/** Far more entries than any Office document holds (a large .docx has a few hundred). */
const MAX_ENTRIES = 10_000;

/**
 * Refuses a ZIP-based file (.docx) that would expand to more than `maxExpandedBytes`, or more than
 * MAX_COMPRESSION_RATIO times its size, before any parser inflates it. The central directory's
 * sizes are checked first; then every entry is inflated as a stream and counted, because those
 * sizes are written by whoever made the file (yauzl also fails an entry that inflates to more
 * than it declared). Nothing inflated is kept. An archive that cannot be read to the end is
 * refused as corrupt rather than handed to a parser that might read it differently.
 */
export async function checkArchive(data: Buffer, maxExpandedBytes: number): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise((resolve, reject) =>
      yauzl.fromBuffer(
        data,
        { lazyEntries: true, validateEntrySizes: true, strictFileNames: false },
        (e, z) => (e ? reject(e) : resolve(z)),
      ),
    );
  } catch {
    throw corrupt();
  }
  const entries: yauzl.Entry[] = [];
  try {
    let declared = 0;
    for await (const entry of readEntries(zip)) {
      entries.push(entry);
      declared += entry.uncompressedSize;
      if (entries.length > MAX_ENTRIES) {
        throw new ParseError(
          'too_large',
          `This file holds more than ${MAX_ENTRIES} packed parts and was not opened.`,
        );
      }
      assertExpansion(declared, data.length, maxExpandedBytes);
    }
    let inflated = 0;
    for (const entry of entries) {
      inflated += await countEntryBytes(zip, entry, (sofar) =>
        assertExpansion(inflated + sofar, data.length, maxExpandedBytes),
      );
    }
  } catch (error) {
    if (error instanceof ParseError) throw error;
    // An entry that inflates to more than it declared is a lie only bombs tell.
    if (/too many bytes/i.test(String((error as Error)?.message))) {
      throw new ParseError(
        'too_large',
        'This file expands to more than its own table of contents says: it looks like a decompression bomb and was not opened.',
      );
    }
    // What cannot be checked is not handed to a parser.
    throw corrupt();
  } finally {
    zip.close();
  }
}

function assertExpansion(expanded: number, compressed: number, maxExpandedBytes: number): void {
  if (expanded > maxExpandedBytes) {
    throw new ParseError(
      'too_large',
      `This file expands to more than ${megabytes(maxExpandedBytes)} when unpacked, the limit for one file. Split it into smaller documents.`,
    );
  }
  if (expanded > RATIO_CHECKED_ABOVE_BYTES && expanded > compressed * MAX_COMPRESSION_RATIO) {
    throw new ParseError(
      'too_large',
      `This file expands to more than ${MAX_COMPRESSION_RATIO} times its size (${megabytes(compressed)} to over ${megabytes(expanded)}): it looks like a decompression bomb and was not opened.`,
    );
  }
}

async function* readEntries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  while (true) {
    const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
      const onEntry = (e: yauzl.Entry) => done(undefined, e);
      const onEnd = () => done(undefined, undefined);
      const onError = (e: Error) => done(e);
      const done = (error: Error | undefined, e?: yauzl.Entry) => {
        zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
        if (error) reject(error);
        else resolve(e);
      };
      zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
      zip.readEntry();
    });
    if (!entry) return;
    yield entry;
  }
}

/** Inflates one entry, counting its bytes and dropping them; `check` may throw to stop early. */
async function countEntryBytes(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  check: (bytes: number) => void,
): Promise<number> {
  if (entry.fileName.endsWith('/')) return 0;
  const stream = await new Promise<NodeJS.ReadableStream & { destroy(): void }>((resolve, reject) =>
    zip.openReadStream(entry, (e, s) => (e ? reject(e) : resolve(s as never))),
  );
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      bytes += (chunk as Buffer).length;
      check(bytes);
    }
  } finally {
    stream.destroy();
  }
  return bytes;
}

const corrupt = () =>
  new ParseError('corrupt', 'This Word document is corrupt or incomplete and cannot be read.');
