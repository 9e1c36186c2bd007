ALTER TABLE `events` ADD `refund_cutoff_hours` integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `refund_rule` text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `refund_percent` integer;