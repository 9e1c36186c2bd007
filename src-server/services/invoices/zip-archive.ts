import { crc32, deflateRawSync } from 'node:zlib';

/** One file of a ZIP archive. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/**
 * A ZIP archive (PKWARE APPNOTE 6.3, the subset every unzip reads: deflate, no ZIP64, no encryption) of a
 * few small files, for the GSTR-1 export. Node's zlib does the deflate and the CRC-32, so this needs no
 * package (docs/decisions/0034-gstr1-export-and-e-invoicing.md). Names are written as UTF-8 (flag bit
 * 11); the date stamp is fixed, so the same tables give byte-identical archives.
 */
export function zipArchive(entries: readonly ZipEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeCommon(local, 4, crc, compressed.length, entry.data.length, name.length);
    parts.push(local, name, compressed);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by: version 2.0
    writeCommon(header, 6, crc, compressed.length, entry.data.length, name.length);
    // Extra and comment lengths, disk number, internal and external attributes stay 0.
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralSize = central.reduce((n, part) => n + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

/** The fields the local header (at 4) and the central directory header (at 6) share. */
function writeCommon(
  buf: Buffer,
  at: number,
  crc: number,
  compressedSize: number,
  size: number,
  nameLength: number,
) {
  buf.writeUInt16LE(20, at); // version needed: 2.0 (deflate)
  buf.writeUInt16LE(0x0800, at + 2); // UTF-8 names
  buf.writeUInt16LE(8, at + 4); // deflate
  buf.writeUInt16LE(0, at + 6); // time 00:00
  buf.writeUInt16LE(FIXED_DATE, at + 8);
  buf.writeUInt32LE(crc, at + 10);
  buf.writeUInt32LE(compressedSize, at + 14);
  buf.writeUInt32LE(size, at + 18);
  buf.writeUInt16LE(nameLength, at + 22);
}

/** 1 January 2026 in MS-DOS date format ((year − 1980) << 9 | month << 5 | day). */
const FIXED_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;
