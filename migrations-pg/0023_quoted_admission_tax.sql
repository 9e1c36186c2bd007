ALTER TABLE "bookings" ADD COLUMN "admission_tax_rate_percent" double precision;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "admission_exemption_applies" boolean;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "admission_tax_rate_percent" double precision;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "admission_exemption_applies" boolean;