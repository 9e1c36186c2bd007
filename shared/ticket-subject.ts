/**
 * What a ticket token signs (docs/decisions/0025-ticket-transfers.md): the booking id, and after the
 * n-th accepted transfer `{bookingId}~{n}`. A transfer raises n, so every QR made before it names an
 * older generation and the gate refuses it ("Ticket was transferred"); untransferred bookings keep the
 * plain id, so every token already in buyers' hands stays as it is. Shared by the server and gate devices.
 */
export function ticketSubject(bookingId: string, generation: number): string {
  return generation > 0 ? `${bookingId}~${generation}` : bookingId;
}

export function splitTicketSubject(subject: string): { bookingId: string; generation: number } {
  const match = /^(.+)~([1-9]\d{0,3})$/.exec(subject);
  return match
    ? { bookingId: match[1] as string, generation: Number(match[2]) }
    : { bookingId: subject, generation: 0 };
}
