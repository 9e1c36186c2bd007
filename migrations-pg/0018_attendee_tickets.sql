CREATE TABLE "attendee_tickets" (
	"booking_id" text NOT NULL,
	"slot_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"position" integer NOT NULL,
	"allowed" integer NOT NULL,
	"admitted" integer DEFAULT 0 NOT NULL,
	"last_check_in_at" text,
	"voided_at" text,
	CONSTRAINT "attendee_tickets_booking_id_ticket_type_id_position_pk" PRIMARY KEY("booking_id","ticket_type_id","position")
);
--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "per_attendee_tickets" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gate_scans" ADD COLUMN "ticket_id" text;--> statement-breakpoint
ALTER TABLE "attendee_tickets" ADD CONSTRAINT "attendee_tickets_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendee_tickets_slot_idx" ON "attendee_tickets" USING btree ("slot_id");--> statement-breakpoint
CREATE INDEX "attendee_tickets_voided_idx" ON "attendee_tickets" USING btree ("slot_id") WHERE "attendee_tickets"."voided_at" is not null;