CREATE TABLE `booking_transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`from_user_id` text NOT NULL,
	`from_name` text NOT NULL,
	`to_name` text NOT NULL,
	`to_email` text NOT NULL,
	`to_phone` text DEFAULT '' NOT NULL,
	`token_hash` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`to_user_id` text,
	`created_at` text NOT NULL,
	`accepted_at` text,
	`cancelled_at` text,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`from_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_transfers_token_hash_unique` ON `booking_transfers` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `booking_transfers_pending_idx` ON `booking_transfers` (`booking_id`) WHERE "booking_transfers"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `booking_transfers_booking_idx` ON `booking_transfers` (`booking_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `booking_transfers_from_idx` ON `booking_transfers` (`from_user_id`,`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `transfer_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `paid_by_user_id` text REFERENCES users(id);--> statement-breakpoint
CREATE INDEX `bookings_slot_transferred_idx` ON `bookings` (`slot_id`) WHERE "bookings"."transfer_count" > 0;--> statement-breakpoint
ALTER TABLE `events` ADD `transfers_allowed` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `max_transfers_per_booking` integer DEFAULT 1 NOT NULL;