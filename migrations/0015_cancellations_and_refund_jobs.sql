ALTER TABLE `bookings` ADD `cancelled_at` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `cancel_reason` text;--> statement-breakpoint
CREATE INDEX `bookings_slot_status_idx` ON `bookings` (`slot_id`,`status`);--> statement-breakpoint
ALTER TABLE `slots` ADD `cancelled_at` text;--> statement-breakpoint
CREATE INDEX `slots_cancelled_idx` ON `slots` (`cancelled_at`) WHERE cancelled_at is not null;--> statement-breakpoint
ALTER TABLE `refunds` ADD `booking_id` text;--> statement-breakpoint
ALTER TABLE `refunds` ADD `next_attempt_at` text;--> statement-breakpoint
CREATE INDEX `refunds_due_idx` ON `refunds` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `refunds_booking_idx` ON `refunds` (`booking_id`);