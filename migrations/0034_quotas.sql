CREATE TABLE `quota_ticket_types` (
	`ticket_type_id` text NOT NULL,
	`quota_id` text NOT NULL,
	PRIMARY KEY(`ticket_type_id`, `quota_id`),
	FOREIGN KEY (`ticket_type_id`) REFERENCES `ticket_types`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`quota_id`) REFERENCES `quotas`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quota_ticket_types_quota_idx` ON `quota_ticket_types` (`quota_id`);--> statement-breakpoint
CREATE TABLE `quotas` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`name` text NOT NULL,
	`capacity` integer NOT NULL,
	`available` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quotas_event_idx` ON `quotas` (`event_id`);