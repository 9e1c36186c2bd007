import { inflateSync } from 'node:zlib';

/**
 * The text drawn on a pdfkit document's pages, one line per text operator. pdfkit compresses page
 * streams (FlateDecode) and writes built-in-font text as hex strings inside TJ arrays, split at kerning
 * adjustments; this reverses exactly that, enough for tests to read what a page says.
 */
export function pdfPageText(pdf: Buffer): string {
  const lines: string[] = [];
  const raw = pdf.toString('latin1');
  const streamPattern = /stream\r?\n/g;
  for (let match = streamPattern.exec(raw); match; match = streamPattern.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = bytes.toString('latin1');
    }
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ/g)) {
      const hexParts = [...op[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) =>
        Buffer.from(h[1]!, 'hex').toString('latin1'),
      );
      lines.push(hexParts.join(''));
    }
    streamPattern.lastIndex = end;
  }
  return lines.join('\n');
}

/** Number of pages (`/Type /Page` objects) in a PDF. */
export function pdfPageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
}
