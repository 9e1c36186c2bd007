CREATE TABLE `gate_scans` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scan_id` text NOT NULL,
	`event_id` text NOT NULL,
	`slot_id` text NOT NULL,
	`booking_id` text,
	`kind` text NOT NULL,
	`persons` integer DEFAULT 0 NOT NULL,
	`excess` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`undoes_scan_id` text,
	`gate` text NOT NULL,
	`device_id` text NOT NULL,
	`staff_user_id` text,
	`scanned_at` text NOT NULL,
	`received_at` text NOT NULL,
	`offline` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staff_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gate_scans_scan_id_unique` ON `gate_scans` (`scan_id`);--> statement-breakpoint
CREATE INDEX `gate_scans_slot_seq_idx` ON `gate_scans` (`slot_id`,`seq`);--> statement-breakpoint
CREATE INDEX `gate_scans_booking_idx` ON `gate_scans` (`booking_id`,`seq`);--> statement-breakpoint
CREATE INDEX `gate_scans_double_idx` ON `gate_scans` (`slot_id`,`seq`) WHERE "gate_scans"."excess" > 0;--> statement-breakpoint
CREATE INDEX `bookings_slot_idx` ON `bookings` (`slot_id`);--> statement-breakpoint
-- Gate rights became per event (docs/decisions/0022). An account the previous release flagged as staff
-- could check tickets in at every event: it becomes gate staff of every event that exists now, so an
-- upgrade changes nothing at the door. New events get their gate staff through the team page or
-- `npm run user:staff -- <email> --event <id>`.
INSERT OR IGNORE INTO `event_team_members` (`event_id`, `user_id`, `role`, `added_at`)
SELECT `events`.`id`, `users`.`id`, 'gate_staff', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM `users` CROSS JOIN `events`
WHERE `users`.`is_staff` = 1;
