CREATE TABLE `credit_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`invoice_id` text NOT NULL,
	`issuer` text NOT NULL,
	`number` text NOT NULL,
	`financial_year` text NOT NULL,
	`issued_at` text NOT NULL,
	`reason` text NOT NULL,
	`taxable_value_paise` integer NOT NULL,
	`cgst_paise` integer NOT NULL,
	`sgst_paise` integer NOT NULL,
	`igst_paise` integer NOT NULL,
	`total_paise` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_invoice_id_unique` ON `credit_notes` (`invoice_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_issuer_number_idx` ON `credit_notes` (`issuer`,`number`);--> statement-breakpoint
CREATE INDEX `credit_notes_issuer_issued_idx` ON `credit_notes` (`issuer`,`issued_at`);--> statement-breakpoint
CREATE TABLE `document_counters` (
	`issuer` text NOT NULL,
	`series` text NOT NULL,
	`financial_year` text NOT NULL,
	`last_number` integer NOT NULL,
	PRIMARY KEY(`issuer`, `series`, `financial_year`)
);
--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`kind` text NOT NULL,
	`document_type` text NOT NULL,
	`issuer` text NOT NULL,
	`event_id` text NOT NULL,
	`number` text NOT NULL,
	`financial_year` text NOT NULL,
	`issued_at` text NOT NULL,
	`supplier_name` text NOT NULL,
	`supplier_address` text NOT NULL,
	`supplier_state` text NOT NULL,
	`supplier_gstin` text,
	`buyer_name` text NOT NULL,
	`buyer_state` text NOT NULL,
	`buyer_gstin` text,
	`buyer_legal_name` text,
	`place_of_supply` text NOT NULL,
	`tax_inclusive` integer NOT NULL,
	`lines` text NOT NULL,
	`taxable_value_paise` integer NOT NULL,
	`cgst_paise` integer NOT NULL,
	`sgst_paise` integer NOT NULL,
	`igst_paise` integer NOT NULL,
	`total_paise` integer NOT NULL,
	`notes` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_issuer_number_idx` ON `invoices` (`issuer`,`number`);--> statement-breakpoint
CREATE INDEX `invoices_booking_idx` ON `invoices` (`booking_id`,`kind`);--> statement-breakpoint
CREATE INDEX `invoices_issuer_issued_idx` ON `invoices` (`issuer`,`issued_at`);--> statement-breakpoint
CREATE INDEX `invoices_event_issued_idx` ON `invoices` (`event_id`,`issued_at`);--> statement-breakpoint
CREATE TABLE `organiser_profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`legal_name` text NOT NULL,
	`address` text NOT NULL,
	`state` text NOT NULL,
	`gstin` text,
	`default_tax_rate` real DEFAULT 18 NOT NULL,
	`tax_inclusive` integer DEFAULT true NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `events` ADD `tax_rate` real;--> statement-breakpoint
-- Issued documents are immutable (issue 16, ADR 0024): the database refuses to change or remove one.
CREATE TRIGGER `invoices_immutable_update` BEFORE UPDATE ON `invoices` BEGIN SELECT RAISE(ABORT, 'invoices are immutable'); END;--> statement-breakpoint
CREATE TRIGGER `invoices_immutable_delete` BEFORE DELETE ON `invoices` BEGIN SELECT RAISE(ABORT, 'invoices are immutable'); END;--> statement-breakpoint
CREATE TRIGGER `credit_notes_immutable_update` BEFORE UPDATE ON `credit_notes` BEGIN SELECT RAISE(ABORT, 'credit notes are immutable'); END;--> statement-breakpoint
CREATE TRIGGER `credit_notes_immutable_delete` BEFORE DELETE ON `credit_notes` BEGIN SELECT RAISE(ABORT, 'credit notes are immutable'); END;
