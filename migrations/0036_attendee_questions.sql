CREATE TABLE `attendee_name_settings` (
	`ticket_type_id` text PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	FOREIGN KEY (`ticket_type_id`) REFERENCES `ticket_types`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `booking_answers` (
	`hold_id` text,
	`booking_id` text,
	`question_id` text NOT NULL,
	`position` integer NOT NULL,
	`value` text NOT NULL,
	FOREIGN KEY (`hold_id`) REFERENCES `holds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`question_id`) REFERENCES `ticket_questions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_answers_hold_idx` ON `booking_answers` (`hold_id`,`question_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `booking_answers_booking_idx` ON `booking_answers` (`booking_id`,`question_id`,`position`);--> statement-breakpoint
CREATE TABLE `booking_attendees` (
	`hold_id` text,
	`booking_id` text,
	`ticket_type_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`hold_id`) REFERENCES `holds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_attendees_hold_idx` ON `booking_attendees` (`hold_id`,`ticket_type_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `booking_attendees_booking_idx` ON `booking_attendees` (`booking_id`,`ticket_type_id`,`position`);--> statement-breakpoint
CREATE TABLE `ticket_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`label` text NOT NULL,
	`kind` text NOT NULL,
	`options` text NOT NULL,
	`required` integer DEFAULT false NOT NULL,
	`scope` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`removed_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_type_id`) REFERENCES `ticket_types`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_questions_type_idx` ON `ticket_questions` (`ticket_type_id`);--> statement-breakpoint
CREATE INDEX `ticket_questions_event_idx` ON `ticket_questions` (`event_id`);