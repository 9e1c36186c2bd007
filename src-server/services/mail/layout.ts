/**
 * The one look every Jalsa e-mail shares, producing both bodies from the same content: an HTML version
 * with inline styles (mail clients ignore style sheets) and a plain-text version.
 */
export interface MailContent {
  /** Shown as the heading and used as the HTML title. */
  heading: string;
  greeting?: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Small print under the action, e.g. how long a link stays valid. */
  footnote?: string;
}

export function renderMail(content: MailContent): { html: string; text: string } {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.heading)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 16px;font-size:22px;font-weight:bold;color:#e11d48">Jalsa</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(content.heading)}</h1>
${content.greeting ? `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(content.greeting)}</p>\n` : ''}${content.paragraphs
  .map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`)
  .join('\n')}
${
  content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#e11d48;color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 20px;border-radius:6px">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 12px;font-size:13px;color:#6b7280;word-break:break-all">Or open this link: ${escapeHtml(content.action.url)}</p>`
    : ''
}
${content.footnote ? `<p style="margin:16px 0 0;font-size:13px;color:#6b7280">${escapeHtml(content.footnote)}</p>` : ''}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  const text = [
    content.heading,
    '',
    ...(content.greeting ? [content.greeting, ''] : []),
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(content.footnote ? [content.footnote, ''] : []),
    '— Jalsa',
    '',
  ].join('\n');
  return { html, text };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
