// @ts-check
// Caps the maximum of the memory Pyodide's wasm module defines. The module declares its own
// memory (min 480 pages, max 65,536 pages = 4 GiB) instead of importing one, so the limit cannot
// be passed in: we rewrite the max in place with a same-width LEB128 so no section size changes.
// Without this a memory bomb grows to 4 GiB per worker before Python sees a MemoryError.

/** Reads an unsigned LEB128 at `start`: its value and the index just past it.
 * @param {Uint8Array} bytes
 * @param {number} start
 * @returns {[value: number, end: number]}
 */
function readLeb(bytes, start) {
  let result = 0;
  let shift = 0;
  let i = start;
  let byte;
  do {
    // Past the end (a truncated module) this is undefined, which `&` reads as 0: the loop stops.
    byte = /** @type {number} */ (bytes[i++]);
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [result, i];
}

/**
 * @param {Uint8Array} input the module's bytes (a Buffer from readFileSync)
 * @param {number} maxMiB
 * @returns {Uint8Array<ArrayBuffer>} the patched module (a copy: `input` is not changed)
 */
export function capWasmMemory(input, maxMiB) {
  const bytes = new Uint8Array(input);
  let i = 8; // magic + version
  while (i < bytes.length) {
    const id = bytes[i++];
    const [size, bodyStart] = readLeb(bytes, i);
    i = bodyStart;
    if (id === 5) return patchMemorySection(bytes, i, maxMiB);
    i += size;
  }
  throw new Error("wasm module has no memory section");
}

/**
 * @param {Uint8Array<ArrayBuffer>} bytes patched in place
 * @param {number} start the memory section's body
 * @param {number} maxMiB
 * @returns {Uint8Array<ArrayBuffer>}
 */
function patchMemorySection(bytes, start, maxMiB) {
  let j = start;
  [, j] = readLeb(bytes, j); // memory count (1)
  let flags;
  let min;
  [flags, j] = readLeb(bytes, j);
  [min, j] = readLeb(bytes, j);
  if (!(flags & 1)) throw new Error("wasm memory has no maximum to cap");
  const maxStart = j;
  [, j] = readLeb(bytes, j);
  const width = j - maxStart;
  let pages = Math.max(min, Math.floor((maxMiB * 2 ** 20) / 65536));
  for (let k = 0; k < width; k++) {
    bytes[maxStart + k] = (pages & 0x7f) | (k < width - 1 ? 0x80 : 0);
    pages = Math.floor(pages / 128);
  }
  return bytes;
}
