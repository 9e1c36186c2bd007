CREATE TABLE "partial_credit_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"refund_part_id" text NOT NULL,
	"issuer" text NOT NULL,
	"number" text NOT NULL,
	"financial_year" text NOT NULL,
	"issued_at" text NOT NULL,
	"reason" text NOT NULL,
	"taxable_value_paise" bigint NOT NULL,
	"cgst_paise" bigint NOT NULL,
	"sgst_paise" bigint NOT NULL,
	"igst_paise" bigint NOT NULL,
	"total_paise" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_parts" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"order_id" text NOT NULL,
	"booking_id" text NOT NULL,
	"user_id" text NOT NULL,
	"fee_paise" bigint NOT NULL,
	"amount_paise" bigint NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"actor_user_id" text,
	"cancelled_tickets" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"gateway_refund_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partial_credit_notes" ADD CONSTRAINT "partial_credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partial_credit_notes" ADD CONSTRAINT "partial_credit_notes_refund_part_id_refund_parts_id_fk" FOREIGN KEY ("refund_part_id") REFERENCES "public"."refund_parts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_parts" ADD CONSTRAINT "refund_parts_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_parts" ADD CONSTRAINT "refund_parts_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_parts" ADD CONSTRAINT "refund_parts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_parts" ADD CONSTRAINT "refund_parts_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partial_credit_notes_issuer_number_idx" ON "partial_credit_notes" USING btree ("issuer","number");--> statement-breakpoint
CREATE INDEX "partial_credit_notes_invoice_idx" ON "partial_credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "partial_credit_notes_issuer_issued_idx" ON "partial_credit_notes" USING btree ("issuer","issued_at");--> statement-breakpoint
CREATE INDEX "refund_parts_payment_idx" ON "refund_parts" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refund_parts_booking_idx" ON "refund_parts" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "refund_parts_due_idx" ON "refund_parts" USING btree ("status","next_attempt_at");