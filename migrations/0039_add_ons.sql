CREATE TABLE `add_on_variants` (
	`id` text PRIMARY KEY NOT NULL,
	`add_on_id` text NOT NULL,
	`name` text NOT NULL,
	`stock` integer NOT NULL,
	`available` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`add_on_id`) REFERENCES `add_ons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `add_on_variants_add_on_idx` ON `add_on_variants` (`add_on_id`);--> statement-breakpoint
CREATE TABLE `add_ons` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`price_paise` integer NOT NULL,
	`tax_rate_percent` integer NOT NULL,
	`hsn_sac` text NOT NULL,
	`max_per_order` integer NOT NULL,
	`ticket_type_ids` text,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `add_ons_event_idx` ON `add_ons` (`event_id`);--> statement-breakpoint
CREATE TABLE `booking_add_ons` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`add_on_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`name` text NOT NULL,
	`variant_name` text NOT NULL,
	`hsn_sac` text NOT NULL,
	`quantity` integer NOT NULL,
	`price_paise` integer NOT NULL,
	`tax_rate_percent` integer NOT NULL,
	`total_paise` integer NOT NULL,
	`position` integer NOT NULL,
	`returned_at` text,
	`given_at` text,
	`given_by_user_id` text,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `booking_add_ons_booking_idx` ON `booking_add_ons` (`booking_id`);--> statement-breakpoint
CREATE TABLE `hold_add_ons` (
	`hold_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`add_on_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`price_paise` integer NOT NULL,
	`tax_rate_percent` integer NOT NULL,
	`total_paise` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`hold_id`, `variant_id`),
	FOREIGN KEY (`hold_id`) REFERENCES `holds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`variant_id`) REFERENCES `add_on_variants`(`id`) ON UPDATE no action ON DELETE no action
);
