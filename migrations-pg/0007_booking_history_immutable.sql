-- The order history is append-only (issue 40; SQLite: migrations/0031), with the refuse_change() function
-- of 0001_search_and_guards that guards invoices and credit notes.
CREATE TRIGGER "booking_history_immutable" BEFORE UPDATE OR DELETE ON "booking_history"
  FOR EACH ROW EXECUTE FUNCTION "refuse_change"('booking history is append-only');
