CREATE TABLE `gate_positions` (
	`scope` text PRIMARY KEY NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `gate_list_position` integer;--> statement-breakpoint
CREATE INDEX `bookings_slot_gate_list_idx` ON `bookings` (`slot_id`,`gate_list_position`) WHERE "bookings"."gate_list_position" is not null;--> statement-breakpoint
CREATE INDEX `bookings_event_gate_list_idx` ON `bookings` (`event_id`,`gate_list_position`) WHERE "bookings"."gate_list_position" is not null;--> statement-breakpoint
ALTER TABLE `gate_scans` ADD `feed_position` integer;--> statement-breakpoint
CREATE INDEX `gate_scans_slot_feed_idx` ON `gate_scans` (`slot_id`,`feed_position`) WHERE "gate_scans"."feed_position" is not null;