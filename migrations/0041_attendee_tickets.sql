CREATE TABLE `attendee_tickets` (
	`booking_id` text NOT NULL,
	`slot_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`position` integer NOT NULL,
	`allowed` integer NOT NULL,
	`admitted` integer DEFAULT 0 NOT NULL,
	`last_check_in_at` text,
	`voided_at` text,
	PRIMARY KEY(`booking_id`, `ticket_type_id`, `position`),
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `attendee_tickets_slot_idx` ON `attendee_tickets` (`slot_id`);--> statement-breakpoint
CREATE INDEX `attendee_tickets_voided_idx` ON `attendee_tickets` (`slot_id`) WHERE "attendee_tickets"."voided_at" is not null;--> statement-breakpoint
ALTER TABLE `ticket_types` ADD `per_attendee_tickets` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `gate_scans` ADD `ticket_id` text;