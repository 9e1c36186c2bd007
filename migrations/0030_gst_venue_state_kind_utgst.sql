ALTER TABLE `events` ADD `venue_state` text;--> statement-breakpoint
ALTER TABLE `events` ADD `admission_kind` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `state_tax_head` text;