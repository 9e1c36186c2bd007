CREATE TABLE `waiting_room_visitors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`user_id` text NOT NULL,
	`arrived_at` text NOT NULL,
	`position` integer,
	`admitted_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waiting_room_visitors_account_idx` ON `waiting_room_visitors` (`event_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `waiting_room_visitors_position_idx` ON `waiting_room_visitors` (`event_id`,`position`);--> statement-breakpoint
CREATE TABLE `waiting_rooms` (
	`event_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`opens_at` text NOT NULL,
	`admit_per_minute` integer,
	`drawn_at` text,
	`admitted_through` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`slot_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`user_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`details` text NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`offer_hold_id` text,
	`offered_at` text,
	`offer_expires_at` text,
	`created_at` text NOT NULL,
	`ended_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`slot_id`) REFERENCES `slots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ticket_type_id`) REFERENCES `ticket_types`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`offer_hold_id`) REFERENCES `holds`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_entries_live_idx` ON `waitlist_entries` (`user_id`,`slot_id`) WHERE status in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX `waitlist_entries_queue_idx` ON `waitlist_entries` (`ticket_type_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `waitlist_entries_offer_hold_idx` ON `waitlist_entries` (`offer_hold_id`) WHERE offer_hold_id is not null;--> statement-breakpoint
CREATE INDEX `waitlist_entries_user_idx` ON `waitlist_entries` (`user_id`,`status`);--> statement-breakpoint
ALTER TABLE `events` ADD `waitlist_offer_minutes` integer DEFAULT 30 NOT NULL;