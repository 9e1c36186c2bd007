CREATE TABLE "gate_positions" (
	"scope" text PRIMARY KEY NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "gate_list_position" integer;--> statement-breakpoint
ALTER TABLE "gate_scans" ADD COLUMN "feed_position" integer;--> statement-breakpoint
CREATE INDEX "bookings_slot_gate_list_idx" ON "bookings" USING btree ("slot_id","gate_list_position") WHERE "bookings"."gate_list_position" is not null;--> statement-breakpoint
CREATE INDEX "bookings_event_gate_list_idx" ON "bookings" USING btree ("event_id","gate_list_position") WHERE "bookings"."gate_list_position" is not null;--> statement-breakpoint
CREATE INDEX "gate_scans_slot_feed_idx" ON "gate_scans" USING btree ("slot_id","feed_position") WHERE "gate_scans"."feed_position" is not null;--> statement-breakpoint
-- Hand-written (ADR 0045): the gate's orderings on PostgreSQL, numbered at commit. A constraint trigger
-- DEFERRABLE INITIALLY DEFERRED runs as its transaction commits; it takes the scope's gate_positions row
-- (the row lock held to the commit), so the next number is handed out only after this one is visible:
-- positions commit in order, without gaps, and a cursor "after N" never passes a row committed later.
-- Taken last in every transaction, the lock cannot be part of a deadlock with the transaction's others.
CREATE FUNCTION "gate_scans_feed_position"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE next_position integer;
BEGIN
  INSERT INTO "gate_positions" AS p ("scope", "position") VALUES ('slot:' || NEW."slot_id", 1)
    ON CONFLICT ("scope") DO UPDATE SET "position" = p."position" + 1
    RETURNING p."position" INTO next_position;
  UPDATE "gate_scans" SET "feed_position" = next_position WHERE "seq" = NEW."seq";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "gate_scans_feed_position" AFTER INSERT ON "gate_scans"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "gate_scans_feed_position"();
--> statement-breakpoint
CREATE FUNCTION "bookings_gate_list_position"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE next_position integer;
BEGIN
  INSERT INTO "gate_positions" AS p ("scope", "position") VALUES ('event:' || NEW."event_id", 1)
    ON CONFLICT ("scope") DO UPDATE SET "position" = p."position" + 1
    RETURNING p."position" INTO next_position;
  UPDATE "bookings" SET "gate_list_position" = next_position WHERE "id" = NEW."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "bookings_gate_list_position" AFTER INSERT ON "bookings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bookings_gate_list_position"();
--> statement-breakpoint
-- Rows from before: a scan keeps its seq as its position (a device's cursor, a seq until now, stays
-- valid) and each slot's counter starts past them; bookings are numbered per event in creation order
-- (until now PostgreSQL's gate sync sent the whole list, so no device holds a ticket cursor here).
UPDATE "gate_scans" SET "feed_position" = "seq";
--> statement-breakpoint
INSERT INTO "gate_positions" ("scope", "position")
  SELECT 'slot:' || "slot_id", max("seq") FROM "gate_scans" GROUP BY "slot_id";
--> statement-breakpoint
UPDATE "bookings" b SET "gate_list_position" = n.position
  FROM (SELECT "id", row_number() OVER (PARTITION BY "event_id" ORDER BY "created_at", "id") AS position
        FROM "bookings") n
  WHERE b."id" = n."id";
--> statement-breakpoint
INSERT INTO "gate_positions" ("scope", "position")
  SELECT 'event:' || "event_id", count(*) FROM "bookings" GROUP BY "event_id";
