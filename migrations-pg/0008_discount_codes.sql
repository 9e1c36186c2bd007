CREATE TABLE "discount_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"code" text NOT NULL,
	"code_key" text NOT NULL,
	"kind" text NOT NULL,
	"percent_off" integer,
	"amount_off_paise" bigint,
	"ticket_type_ids" jsonb,
	"valid_from" text,
	"valid_until" text,
	"max_uses" integer,
	"max_uses_per_buyer" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hold_discounts" (
	"hold_id" text PRIMARY KEY NOT NULL,
	"discount_code_id" text NOT NULL,
	"user_id" text NOT NULL,
	"discount_paise" bigint NOT NULL,
	"created_at" text NOT NULL,
	"returned_at" text
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "discount_code" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "discount_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hold_items" ADD COLUMN "discount_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hold_discounts" ADD CONSTRAINT "hold_discounts_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hold_discounts" ADD CONSTRAINT "hold_discounts_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hold_discounts" ADD CONSTRAINT "hold_discounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_event_key_idx" ON "discount_codes" USING btree ("event_id","code_key");--> statement-breakpoint
CREATE INDEX "hold_discounts_code_user_idx" ON "hold_discounts" USING btree ("discount_code_id","user_id");