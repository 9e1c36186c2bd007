/** Spec §2 share text, followed by the link. */
export function whatsappHref(title: string, link: string): string {
  return `https://wa.me/?text=${encodeURIComponent(`Hey! Check out this event "${title}" ${link}`)}`;
}

/**
 * On a phone with the Web Share API, the system share sheet (WhatsApp, Messages, copy...) is what people
 * expect; elsewhere the page's own dialog. Resolves false when the dialog should open instead.
 */
export async function shareNatively(data: { title: string; url: string }): Promise<boolean> {
  const phone = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  if (!phone || typeof navigator.share !== 'function') return false;
  try {
    await navigator.share({
      title: data.title,
      text: `Hey! Check out this event "${data.title}"`,
      url: data.url,
    });
    return true;
  } catch (error) {
    // Closing the share sheet is a choice, not a failure; anything else falls back to the dialog.
    return (error as { name?: string } | null)?.name === 'AbortError';
  }
}
