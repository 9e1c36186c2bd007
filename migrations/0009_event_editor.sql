ALTER TABLE `events` ADD `language` text;--> statement-breakpoint
ALTER TABLE `events` ADD `status` text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `events_status_start_idx` ON `events` (`status`,`start_time`);--> statement-breakpoint
ALTER TABLE `ticket_types` ADD `max_per_order` integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE `ticket_types` ADD `sale_opens_at` text;--> statement-breakpoint
ALTER TABLE `ticket_types` ADD `sale_closes_at` text;