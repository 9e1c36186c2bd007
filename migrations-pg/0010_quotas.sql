CREATE TABLE "quota_ticket_types" (
	"ticket_type_id" text NOT NULL,
	"quota_id" text NOT NULL,
	CONSTRAINT "quota_ticket_types_ticket_type_id_quota_id_pk" PRIMARY KEY("ticket_type_id","quota_id")
);
--> statement-breakpoint
CREATE TABLE "quotas" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"name" text NOT NULL,
	"capacity" integer NOT NULL,
	"available" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quota_ticket_types" ADD CONSTRAINT "quota_ticket_types_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_ticket_types" ADD CONSTRAINT "quota_ticket_types_quota_id_quotas_id_fk" FOREIGN KEY ("quota_id") REFERENCES "public"."quotas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotas" ADD CONSTRAINT "quotas_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quota_ticket_types_quota_idx" ON "quota_ticket_types" USING btree ("quota_id");--> statement-breakpoint
CREATE INDEX "quotas_event_idx" ON "quotas" USING btree ("event_id");