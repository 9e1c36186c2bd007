ALTER TABLE `events` ADD `max_tickets_per_buyer` integer;--> statement-breakpoint
ALTER TABLE `holds` ADD `seats` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `holds` ADD `client_address` text;--> statement-breakpoint
CREATE INDEX `holds_ended_user_slot_idx` ON `holds` (`user_id`,`slot_id`,`created_at`) WHERE status <> 'active';--> statement-breakpoint
CREATE INDEX `holds_active_address_idx` ON `holds` (`client_address`,`seats`) WHERE status = 'active';--> statement-breakpoint
CREATE INDEX `bookings_user_event_idx` ON `bookings` (`user_id`,`event_id`,`status`);--> statement-breakpoint
-- Holds still active when this runs count for the new per-account and per-address caps too.
UPDATE `holds` SET `seats` = (SELECT coalesce(sum(`quantity`), 0) FROM `hold_items` WHERE `hold_items`.`hold_id` = `holds`.`id`) WHERE `status` = 'active';
