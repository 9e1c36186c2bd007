-- What SQLite's migrations write by hand, on PostgreSQL (docs/decisions/0035-two-engines.md).
-- Trigram matching for catalogue search (partial words, typos), as FTS5's trigram tokenizer does on
-- SQLite; the next migration indexes event_search with it. pg_trgm is a trusted extension: the database's
-- owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- The catalogue's cache version (SQLite: migrations/0014): refresh-event-listing.ts moves it with every
-- change to an event's listing, and any status change moves it too.
CREATE TABLE "catalog_version" (
  "id" integer PRIMARY KEY NOT NULL CHECK ("id" = 1),
  "version" integer NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 1);
--> statement-breakpoint
CREATE FUNCTION "events_status_moves_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalog_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "events_status_moves_catalog_version" AFTER UPDATE OF "status" ON "events"
  FOR EACH ROW EXECUTE FUNCTION "events_status_moves_catalog_version"();
--> statement-breakpoint
-- Invoices and credit notes are immutable (SQLite: migrations/0017), whoever writes.
CREATE FUNCTION "refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0];
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "invoices_immutable" BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION "refuse_change"('invoices are immutable');
--> statement-breakpoint
CREATE TRIGGER "credit_notes_immutable" BEFORE UPDATE OR DELETE ON "credit_notes"
  FOR EACH ROW EXECUTE FUNCTION "refuse_change"('credit notes are immutable');
