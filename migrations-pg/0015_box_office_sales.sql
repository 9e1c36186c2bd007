CREATE TABLE "box_office_sales" (
	"booking_id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"method" text,
	"reference" text,
	"reason" text,
	"recorded_by" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "box_office_sales" ADD CONSTRAINT "box_office_sales_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_office_sales" ADD CONSTRAINT "box_office_sales_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "box_office_sales_event_idx" ON "box_office_sales" USING btree ("event_id","kind");