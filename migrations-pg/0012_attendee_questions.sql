CREATE TABLE "attendee_name_settings" (
	"ticket_type_id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_answers" (
	"hold_id" text,
	"booking_id" text,
	"question_id" text NOT NULL,
	"position" integer NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_attendees" (
	"hold_id" text,
	"booking_id" text,
	"ticket_type_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"label" text NOT NULL,
	"kind" text NOT NULL,
	"options" jsonb NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"scope" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"removed_at" text
);
--> statement-breakpoint
ALTER TABLE "attendee_name_settings" ADD CONSTRAINT "attendee_name_settings_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_answers" ADD CONSTRAINT "booking_answers_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_answers" ADD CONSTRAINT "booking_answers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_answers" ADD CONSTRAINT "booking_answers_question_id_ticket_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."ticket_questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_attendees" ADD CONSTRAINT "booking_attendees_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_attendees" ADD CONSTRAINT "booking_attendees_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_questions" ADD CONSTRAINT "ticket_questions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_questions" ADD CONSTRAINT "ticket_questions_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_answers_hold_idx" ON "booking_answers" USING btree ("hold_id","question_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "booking_answers_booking_idx" ON "booking_answers" USING btree ("booking_id","question_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "booking_attendees_hold_idx" ON "booking_attendees" USING btree ("hold_id","ticket_type_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "booking_attendees_booking_idx" ON "booking_attendees" USING btree ("booking_id","ticket_type_id","position");--> statement-breakpoint
CREATE INDEX "ticket_questions_type_idx" ON "ticket_questions" USING btree ("ticket_type_id");--> statement-breakpoint
CREATE INDEX "ticket_questions_event_idx" ON "ticket_questions" USING btree ("event_id");