ALTER TABLE `events` ADD `admin_hold_at` text;--> statement-breakpoint
ALTER TABLE `events` ADD `admin_hold_by` text REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `events` ADD `admin_hold_reason` text;--> statement-breakpoint
CREATE INDEX `team_invitations_invited_by_idx` ON `team_invitations` (`invited_by`);