CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`email` text NOT NULL,
	`phone` text,
	`image_url` text,
	`is_email_verified` integer DEFAULT false NOT NULL,
	`password_hash` text,
	`google_id` text,
	`booking_ids_list` text DEFAULT '[]' NOT NULL,
	`gender` text,
	`country` text,
	`state` text,
	`about` text,
	`is_staff` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_id_unique` ON `users` (`google_id`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`order_id` text NOT NULL,
	`event_id` text NOT NULL,
	`slot_id` text NOT NULL,
	`ticket_date` text NOT NULL,
	`ticket_slot` text NOT NULL,
	`ticket_slot_end` text NOT NULL,
	`ticket_type` text NOT NULL,
	`ticket_types` text NOT NULL,
	`ticket_count` integer NOT NULL,
	`user_id` text NOT NULL,
	`user_name` text NOT NULL,
	`user_phone` text NOT NULL,
	`user_email` text NOT NULL,
	`user_state` text NOT NULL,
	`user_city` text,
	`event_name` text NOT NULL,
	`event_location` text NOT NULL,
	`subtotal_amount_paise` integer NOT NULL,
	`fee_amount_paise` integer NOT NULL,
	`igst_amount_paise` integer NOT NULL,
	`total_amount_paise` integer NOT NULL,
	`status` text DEFAULT 'confirmed' NOT NULL,
	`is_check_in` integer DEFAULT false NOT NULL,
	`total_user_allowed` integer NOT NULL,
	`number_of_user_checked_in` integer DEFAULT 0 NOT NULL,
	`last_check_in_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_payment_id_unique` ON `bookings` (`payment_id`);--> statement-breakpoint
CREATE INDEX `bookings_user_idx` ON `bookings` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `artists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`name` text NOT NULL,
	`image_url` text,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `artists_event_idx` ON `artists` (`event_id`);--> statement-breakpoint
CREATE TABLE `event_dates` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`date_of_event` text NOT NULL,
	`is_live` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_dates_event_idx` ON `event_dates` (`event_id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`category` text NOT NULL,
	`city` text NOT NULL,
	`images_urls` text DEFAULT '[]' NOT NULL,
	`poster_url` text,
	`start_time` text NOT NULL,
	`end_time` text,
	`event_location_text` text DEFAULT '' NOT NULL,
	`google_maps_embed_link` text,
	`age_restrictions` integer,
	`terms_and_conditions` text DEFAULT '[]' NOT NULL,
	`platform_fee_rate` real,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_city_idx` ON `events` (`city`);--> statement-breakpoint
CREATE INDEX `events_start_idx` ON `events` (`start_time`);--> statement-breakpoint
CREATE TABLE `slots` (
	`id` text PRIMARY KEY NOT NULL,
	`event_date_id` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	FOREIGN KEY (`event_date_id`) REFERENCES `event_dates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `slots_date_idx` ON `slots` (`event_date_id`);--> statement-breakpoint
CREATE TABLE `ticket_types` (
	`id` text PRIMARY KEY NOT NULL,
	`slot_id` text NOT NULL,
	`name` text NOT NULL,
	`price_paise` integer NOT NULL,
	`person_allowed_per_ticket` integer DEFAULT 1 NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`is_refundable` integer DEFAULT false NOT NULL,
	`total_tickets` integer NOT NULL,
	`available_tickets` integer NOT NULL,
	`is_live` integer DEFAULT true NOT NULL,
	`benefits` text DEFAULT '[]' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`slot_id`) REFERENCES `slots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_types_slot_idx` ON `ticket_types` (`slot_id`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`mobile` text NOT NULL,
	`message` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`idempotency_key` text NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`html` text NOT NULL,
	`text` text NOT NULL,
	`attachments` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`sent_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_idempotency_key_unique` ON `outbox` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`status`,`next_attempt_at`);