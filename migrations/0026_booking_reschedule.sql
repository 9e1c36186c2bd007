ALTER TABLE `bookings` ADD `rescheduled_from` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `reschedule_refund_until` text;