import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Originals of knowledge items, content-addressed under DATA_DIR/files: the path is the SHA-256 of
 * the bytes (`ab/cd/abcd…`), so the same file uploaded twice is stored once and a path never
 * changes meaning. Writes go to a temporary name first and are renamed into place, so a crash
 * never leaves a truncated original behind a valid name.
 */
export interface FileStore {
  /** Stores the bytes; resolves to the relative path (the item's `file_path`). */
  put(data: Buffer): Promise<string>;
  get(relativePath: string): Promise<Buffer>;
  /** Removes the file; a missing file is not an error. */
  remove(relativePath: string): Promise<void>;
}

const PATH_RE = /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/;

export function createFileStore(dataDir: string): FileStore {
  const root = path.join(dataDir, 'files');
  /** Directories known to exist: a request storing a hundred texts need not ask for each again. */
  const made = new Set<string>();
  const absolute = (relativePath: string) => {
    // Only paths this store produced are accepted: nothing can escape the root.
    if (!PATH_RE.test(relativePath)) throw new Error(`Not a stored file path: ${relativePath}`);
    return path.join(root, relativePath);
  };
  return {
    async put(data) {
      const hash = createHash('sha256').update(data).digest('hex');
      const relativePath = `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
      const target = absolute(relativePath);
      try {
        await fs.access(target);
        return relativePath;
      } catch {
        // Not stored yet.
      }
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        await fs.mkdir(dir, { recursive: true });
        made.add(dir);
      }
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await fs.writeFile(temp, data);
      await fs.rename(temp, target);
      return relativePath;
    },
    get: (relativePath) => fs.readFile(absolute(relativePath)),
    async remove(relativePath) {
      await fs.rm(absolute(relativePath), { force: true });
    },
  };
}
