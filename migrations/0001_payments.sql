CREATE TABLE `hold_items` (
	`hold_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`price_paise` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`hold_id`, `ticket_type_id`),
	FOREIGN KEY (`hold_id`) REFERENCES `holds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ticket_type_id`) REFERENCES `ticket_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `hold_items_type_idx` ON `hold_items` (`ticket_type_id`);--> statement-breakpoint
CREATE TABLE `holds` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_date_id` text NOT NULL,
	`slot_id` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`details` text NOT NULL,
	`user_city` text,
	`subtotal_paise` integer NOT NULL,
	`fee_paise` integer NOT NULL,
	`igst_paise` integer NOT NULL,
	`total_paise` integer NOT NULL,
	`session_expires_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`release_reason` text,
	`created_at` text NOT NULL,
	`ended_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_date_id`) REFERENCES `event_dates`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`slot_id`) REFERENCES `slots`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `holds_status_expiry_idx` ON `holds` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `holds_user_idx` ON `holds` (`user_id`);--> statement-breakpoint
CREATE TABLE `payment_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`gateway` text NOT NULL,
	`hold_id` text NOT NULL,
	`user_id` text NOT NULL,
	`amount_paise` integer NOT NULL,
	`currency` text NOT NULL,
	`receipt` text NOT NULL,
	`notes` text NOT NULL,
	`status` text DEFAULT 'created' NOT NULL,
	`checked_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`hold_id`) REFERENCES `holds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_orders_hold_idx` ON `payment_orders` (`hold_id`);--> statement-breakpoint
CREATE INDEX `payment_orders_status_idx` ON `payment_orders` (`status`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`order_id` text NOT NULL,
	`user_id` text NOT NULL,
	`amount_paise` integer NOT NULL,
	`reason` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`gateway_refund_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `payment_orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_payment_id_unique` ON `refunds` (`payment_id`);--> statement-breakpoint
CREATE INDEX `refunds_status_idx` ON `refunds` (`status`);--> statement-breakpoint
CREATE TABLE `simulator_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`amount_paise` integer NOT NULL,
	`currency` text NOT NULL,
	`receipt` text NOT NULL,
	`notes` text NOT NULL,
	`status` text DEFAULT 'created' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `simulator_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`amount_paise` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`error_description` text,
	`amount_refunded_paise` integer DEFAULT 0 NOT NULL,
	`refund_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `simulator_orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `simulator_payments_order_idx` ON `simulator_payments` (`order_id`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`event` text NOT NULL,
	`received_at` text NOT NULL,
	`processed_at` text
);
