CREATE TABLE "add_on_variants" (
	"id" text PRIMARY KEY NOT NULL,
	"add_on_id" text NOT NULL,
	"name" text NOT NULL,
	"stock" integer NOT NULL,
	"available" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "add_ons" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_paise" integer NOT NULL,
	"tax_rate_percent" integer NOT NULL,
	"hsn_sac" text NOT NULL,
	"max_per_order" integer NOT NULL,
	"ticket_type_ids" jsonb,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_add_ons" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"add_on_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"name" text NOT NULL,
	"variant_name" text NOT NULL,
	"hsn_sac" text NOT NULL,
	"quantity" integer NOT NULL,
	"price_paise" integer NOT NULL,
	"tax_rate_percent" integer NOT NULL,
	"total_paise" integer NOT NULL,
	"position" integer NOT NULL,
	"returned_at" text,
	"given_at" text,
	"given_by_user_id" text
);
--> statement-breakpoint
CREATE TABLE "hold_add_ons" (
	"hold_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"add_on_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"price_paise" integer NOT NULL,
	"tax_rate_percent" integer NOT NULL,
	"total_paise" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "hold_add_ons_hold_id_variant_id_pk" PRIMARY KEY("hold_id","variant_id")
);
--> statement-breakpoint
ALTER TABLE "add_on_variants" ADD CONSTRAINT "add_on_variants_add_on_id_add_ons_id_fk" FOREIGN KEY ("add_on_id") REFERENCES "public"."add_ons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_add_ons" ADD CONSTRAINT "booking_add_ons_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hold_add_ons" ADD CONSTRAINT "hold_add_ons_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hold_add_ons" ADD CONSTRAINT "hold_add_ons_variant_id_add_on_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."add_on_variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "add_on_variants_add_on_idx" ON "add_on_variants" USING btree ("add_on_id");--> statement-breakpoint
CREATE INDEX "add_ons_event_idx" ON "add_ons" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "booking_add_ons_booking_idx" ON "booking_add_ons" USING btree ("booking_id");