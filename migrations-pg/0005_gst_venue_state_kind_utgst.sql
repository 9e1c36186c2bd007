ALTER TABLE "events" ADD COLUMN "venue_state" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "admission_kind" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "state_tax_head" text;