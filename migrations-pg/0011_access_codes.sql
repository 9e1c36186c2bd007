ALTER TABLE "ticket_types" ADD COLUMN "is_hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "unlocks_ticket_type_ids" jsonb;