CREATE TABLE `discount_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`code` text NOT NULL,
	`code_key` text NOT NULL,
	`kind` text NOT NULL,
	`percent_off` integer,
	`amount_off_paise` integer,
	`ticket_type_ids` text,
	`valid_from` text,
	`valid_until` text,
	`max_uses` integer,
	`max_uses_per_buyer` integer,
	`uses` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discount_codes_event_key_idx` ON `discount_codes` (`event_id`,`code_key`);--> statement-breakpoint
CREATE TABLE `hold_discounts` (
	`hold_id` text PRIMARY KEY NOT NULL,
	`discount_code_id` text NOT NULL,
	`user_id` text NOT NULL,
	`discount_paise` integer NOT NULL,
	`created_at` text NOT NULL,
	`returned_at` text,
	FOREIGN KEY (`hold_id`) REFERENCES `holds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`discount_code_id`) REFERENCES `discount_codes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `hold_discounts_code_user_idx` ON `hold_discounts` (`discount_code_id`,`user_id`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `discount_code` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `discount_paise` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `hold_items` ADD `discount_paise` integer DEFAULT 0 NOT NULL;