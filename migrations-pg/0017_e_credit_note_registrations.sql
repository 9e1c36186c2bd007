CREATE TABLE "e_credit_note_registrations" (
	"credit_note_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"invoice_id" text NOT NULL,
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
ALTER TABLE "e_credit_note_registrations" ADD CONSTRAINT "e_credit_note_registrations_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "e_credit_note_registrations_due_idx" ON "e_credit_note_registrations" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "e_credit_note_registrations_issuer_idx" ON "e_credit_note_registrations" USING btree ("issuer","status");