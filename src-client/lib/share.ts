/** The link people share: {site}/event/{id} (spec §2); the server previews it with Open Graph tags. */
export function shareLink(origin: string, eventId: string): string {
  return `${origin}/event/${encodeURIComponent(eventId)}`;
}

/** Spec §2 share text, followed by the link. */
export function whatsappHref(title: string, link: string): string {
  return `https://wa.me/?text=${encodeURIComponent(`Hey! Check out this event "${title}" ${link}`)}`;
}
