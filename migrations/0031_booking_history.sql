CREATE TABLE `booking_history` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor` text NOT NULL,
	`actor_user_id` text,
	`at` text NOT NULL,
	`details` text,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `booking_history_booking_idx` ON `booking_history` (`booking_id`,`seq`);--> statement-breakpoint
-- The order history is append-only (issue 40), as invoices are (0017): whoever writes, nothing is rewritten.
CREATE TRIGGER `booking_history_immutable_update` BEFORE UPDATE ON `booking_history` BEGIN SELECT RAISE(ABORT, 'booking history is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `booking_history_immutable_delete` BEFORE DELETE ON `booking_history` BEGIN SELECT RAISE(ABORT, 'booking history is append-only'); END;
