CREATE TABLE `platform_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`convenience_fee_cap` real NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` text
);
