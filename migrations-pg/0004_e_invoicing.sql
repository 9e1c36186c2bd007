CREATE TABLE "e_invoice_registrations" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text,
	"last_error" text,
	"irn" text,
	"ack_number" text,
	"ack_date" text,
	"signed_qr_code" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organiser_profiles" ADD COLUMN "e_invoicing_since" text;--> statement-breakpoint
ALTER TABLE "e_invoice_registrations" ADD CONSTRAINT "e_invoice_registrations_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "e_invoice_registrations_due_idx" ON "e_invoice_registrations" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "e_invoice_registrations_issuer_idx" ON "e_invoice_registrations" USING btree ("issuer","status");--> statement-breakpoint
CREATE INDEX "invoices_b2b_issuer_issued_idx" ON "invoices" USING btree ("issuer","issued_at") WHERE kind = 'admission' and document_type = 'tax_invoice' and buyer_gstin is not null and supplier_gstin is not null;--> statement-breakpoint
CREATE INDEX "organiser_profiles_e_invoicing_idx" ON "organiser_profiles" USING btree ("e_invoicing_since");