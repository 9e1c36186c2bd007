import { z } from 'zod';

/**
 * What ticket selection hands to the checkout (spec §2), carried in the URL so a reload of the checkout
 * keeps it. The event itself is loaded again by id, so prices and availability are always current.
 */
export const checkoutSearchSchema = z.object({
  eventId: z.string().optional().catch(undefined),
  selectedDate: z.string().optional().catch(undefined),
  selectedSlot: z.string().optional().catch(undefined),
  selectedTickets: z
    .array(z.object({ ticketTypeId: z.string(), quantity: z.number().int().min(1).max(10) }))
    .optional()
    .catch(undefined),
  totalPrice: z.number().optional().catch(undefined),
  totalTickets: z.number().optional().catch(undefined),
  eventName: z.string().optional().catch(undefined),
  eventLocation: z.string().optional().catch(undefined),
});
export type CheckoutSearch = z.infer<typeof checkoutSearchSchema>;
